/**
 * "Copy page": puts the page's Markdown copy (written by src/plugins/llms-txt.mjs at the page URL plus .md) on the
 * clipboard, and links to that copy. The Markdown is fetched only when the button is pressed, and the code uses
 * browser APIs alone, so it adds no package to any bundle. The page also names its copy in a
 * `<link rel="alternate" type="text/markdown">` for tools that read the head.
 */
import { useState, type ReactNode } from 'react';
import Head from '@docusaurus/Head';
import useBaseUrl from '@docusaurus/useBaseUrl';
import { mdPathOf } from '@site/src/data/md-path.mjs';
import styles from './styles.module.css';

type State = 'idle' | 'copied' | 'failed';

const LABELS: Record<State, string> = { idle: 'Copy page', copied: 'Copied', failed: 'Copy failed' };

/** The copy's text as a text/plain blob (the server may call a .md file anything). */
async function fetchMarkdown(href: string): Promise<Blob> {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  return new Blob([await response.text()], { type: 'text/plain' });
}

/**
 * Writes the copy to the clipboard. A ClipboardItem holding the pending fetch is handed to the clipboard in the
 * click itself, which Safari requires; browsers without ClipboardItem write the text once it arrives.
 */
async function copyMarkdown(href: string): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    await navigator.clipboard.write([new ClipboardItem({ 'text/plain': fetchMarkdown(href) })]);
  } else {
    await navigator.clipboard.writeText(await (await fetchMarkdown(href)).text());
  }
}

export default function CopyPage({ permalink }: { permalink: string }): ReactNode {
  const href = useBaseUrl(mdPathOf(permalink));
  const absolute = useBaseUrl(mdPathOf(permalink), { absolute: true });
  const [state, setState] = useState<State>('idle');
  const copy = () =>
    copyMarkdown(href).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <div className={styles.copyPage}>
      <Head>
        <link rel="alternate" type="text/markdown" href={absolute} />
      </Head>
      <button type="button" className="button button--sm button--outline button--secondary" onClick={copy}>
        {LABELS[state]}
      </button>
      <a className={styles.markdownLink} href={href} type="text/markdown">
        View as Markdown
      </a>
      <span className={styles.status} role="status">
        {state === 'idle' ? '' : state === 'copied' ? 'The page is on the clipboard as Markdown.' : 'Copying failed.'}
      </span>
    </div>
  );
}
