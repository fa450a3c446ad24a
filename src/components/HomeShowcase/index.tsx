import type { ReactNode } from 'react';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import CodeBlock from '@theme/CodeBlock';
import Link from '@docusaurus/Link';
import snippets from '@generated/app-snippets/default/snippets.json';
import { functionSample, snippetKey, wiringTabs } from '@site/src/data/showcase';
import styles from './styles.module.css';

/** One function on the left, the wiring for each transport on the right. */
export default function HomeShowcase(): ReactNode {
  return (
    <section className={styles.section} aria-labelledby="showcase-heading">
      <div className="container">
        <h2 id="showcase-heading" className={styles.heading}>
          One kind of function, every transport
        </h2>
        <p className={styles.intro}>
          This is <code>getTodo</code> from the team to-do app the docs build. The function does not need to know about
          HTTP or sockets: it gets its services, its input and the call's context, and returns a value. Each tab is a
          file of the same app that reaches it, or a function beside it, on another transport. Every transport calls the
          function through the same runner, so input validation, permissions and the function's own middleware run on
          each.
        </p>
        <div className={styles.grid}>
          <div className={styles.pane}>
            <CodeBlock language="ts" title={functionSample.file}>
              {snippets[snippetKey(functionSample)]}
            </CodeBlock>
          </div>
          <div className={styles.pane}>
            <Tabs groupId="home-wiring" className={styles.tabs}>
              {wiringTabs.map((tab) => (
                <TabItem key={tab.value} value={tab.value} label={tab.label}>
                  <CodeBlock language="ts" title={tab.file}>
                    {snippets[snippetKey(tab)]}
                  </CodeBlock>
                </TabItem>
              ))}
            </Tabs>
          </div>
        </div>
        <p className={styles.more}>
          <Link to="/docs/core-features/functions">How functions work</Link>
          <span aria-hidden="true"> · </span>
          <Link to="/docs/http">Wire HTTP routes</Link>
          <span aria-hidden="true"> · </span>
          <Link to="/docs/channels">Channels</Link>
          <span aria-hidden="true"> · </span>
          <Link to="/docs/rpcs">RPCs</Link>
        </p>
      </div>
    </section>
  );
}
