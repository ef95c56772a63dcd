// The words of this page (referee/words/, served as /words.js) and the one function that says them in the browser:
// `Words.say("director.pause_all")`, `Words.say("board.kind.pass", {}, "de")`. A template's `{name}` is a field; a
// field that is words too ({catalogue, code, fields}, as the server sends an alert's) is said in the same language.
"use strict";

const Words = ((catalogue, language) => {
  let chosen = catalogue[language] ? language : "en";

  function say(key, fields, lang) {
    const lg = lang && catalogue[lang] ? lang : chosen;
    const book = catalogue[lg] || catalogue.en;
    const template = book[key] !== undefined ? book[key] : catalogue.en[key];
    if (template === undefined) return "";
    return template.replace(/\{(\w+)\}/g, (whole, name) => {
      const value = fields ? fields[name] : undefined;
      if (value === undefined || value === null) return "";
      if (typeof value === "object" && value.catalogue && value.code !== undefined) {
        return say(`${value.catalogue}.${value.code}`, value.fields, lg);
      }
      return String(value);
    });
  }

  function has(key) { return catalogue.en[key] !== undefined; }

  // Say the page in `lang` from now on (a language the catalogue lacks keeps the one before).
  function use(lang) {
    if (catalogue[lang]) chosen = lang;
    document.documentElement.lang = chosen;
    return chosen;
  }

  // The page's own labels: an element's text from `data-w`, and its placeholder, title and aria-label from
  // `data-w-placeholder`, `data-w-title`, `data-w-label`.
  function label(root) {
    for (const node of (root || document).querySelectorAll("[data-w]")) node.textContent = say(node.dataset.w);
    for (const node of (root || document).querySelectorAll("[data-w-placeholder]")) {
      node.placeholder = say(node.dataset.wPlaceholder);
    }
    for (const node of (root || document).querySelectorAll("[data-w-title]")) node.title = say(node.dataset.wTitle);
    for (const node of (root || document).querySelectorAll("[data-w-label]")) {
      node.setAttribute("aria-label", say(node.dataset.wLabel));
    }
  }

  use(chosen);
  return { say, has, use, label, get lang() { return chosen; }, languages: Object.keys(catalogue) };
})(/*WORDS*/{}, /*LANGUAGE*/"en");
