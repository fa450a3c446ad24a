// Where the Markdown copy of a page is served: the page URL plus `.md` (`/docs/` -> `/docs.md`). Shared by the
// llms-txt plugin, which writes the copies, and the "Copy page" button, which fetches them.
export const mdPathOf = (permalink) => `${permalink.replace(/\/+$/, '') || '/index'}.md`;
