// Registers the extra Prism languages of the config (bash, toml, diff, ini) where code blocks are drawn, instead of
// in Docusaurus's client module, which put all of Prism into the JavaScript every page loads first. The client module
// is replaced with an empty one by src/plugins/prism-with-code-blocks.ts; Prism now arrives with the first page that
// has a code block, and the languages are registered before that block renders (on the server and in the browser).
// Safe swizzle (wrap): Docusaurus marks wrapping CodeBlock safe; its type comes from '@theme/CodeBlock'.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import { Prism } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import CodeBlock from '@theme-original/CodeBlock';
import type CodeBlockType from '@theme/CodeBlock';

prismIncludeLanguages(Prism);

export default function CodeBlockWrapper(props: WrapperProps<typeof CodeBlockType>): ReactNode {
  return <CodeBlock {...props} />;
}
