/**
 * Prism, with the config's extra languages (bash, toml, diff, ini) registered, and the tokenizer code blocks use.
 *
 * The server build imports this module with the code blocks (./index.ts); the browser's build loads it only when it
 * has a block to draw itself (./browser.ts), since a page's own blocks arrive highlighted in its HTML.
 */
import { Prism, normalizeTokens, type Token } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';

prismIncludeLanguages(Prism);

/** A block's lines of tokens, as prism-react-renderer's useTokenize makes them (plain text for an unknown language). */
export function tokenize(code: string, language: string): Token[][] {
  const grammar = Prism.languages[language];
  if (grammar == null) return normalizeTokens([code]);
  const env = { code, grammar, language, tokens: [] as (string | Prism.Token)[] };
  Prism.hooks.run('before-tokenize', env);
  env.tokens = Prism.tokenize(code, grammar);
  Prism.hooks.run('after-tokenize', env);
  return normalizeTokens(env.tokens);
}

export type Tokenize = typeof tokenize;
