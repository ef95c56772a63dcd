"""Many tables: the broker's topics and payloads, the director service and page, tsh in and out."""
