"""The camera path: frames in, square observations (letter, confidence) out. OpenCV is imported lazily."""
