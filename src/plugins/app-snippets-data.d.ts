/** The code of the app files the home page shows, keyed by `snippetKey` (written by src/plugins/app-snippets.ts). */
declare module '@generated/app-snippets/default/snippets.json' {
  const snippets: Record<string, string>;
  export default snippets;
}
