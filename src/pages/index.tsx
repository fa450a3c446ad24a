import type { ReactNode } from 'react';
import Layout from '@theme/Layout';
import Link from '@docusaurus/Link';
import HomeHero from '@site/src/components/HomeHero';
import HomeShowcase from '@site/src/components/HomeShowcase';
import HomeFeatures from '@site/src/components/HomeFeatures';
import HomeRuntimes from '@site/src/components/HomeRuntimes';
import { site } from '@site/src/data/site';
import styles from './index.module.css';

export default function Home(): ReactNode {
  return (
    <Layout
      title="TypeScript functions for HTTP, WebSockets, queues, cron, RPC and MCP"
      description="Pikku is a TypeScript backend framework with MIT-licensed runtime packages: write functions once, wire them to HTTP, WebSocket channels, queues, scheduled tasks, RPC, MCP and the CLI, and deploy them to servers or serverless platforms."
    >
      {/* The hero is the page's own content: inside <main>, its <header> is not a second banner landmark. */}
      <main>
        <HomeHero />
        <HomeShowcase />
        <HomeFeatures />
        <HomeRuntimes />
        <section className={styles.closing} aria-labelledby="closing-heading">
          <div className="container">
            <h2 id="closing-heading">Start with one function</h2>
            <p>
              The manual setup takes you from an empty folder to a running endpoint: install the packages, add the
              config file, write a function, wire it and serve it. The runtime packages are MIT licensed and the source
              is on GitHub.
            </p>
            <div className={styles.actions}>
              <Link className="button button--primary button--lg" to="/manual-setup">
                Follow the manual setup
              </Link>
              <Link className="button button--secondary button--lg" to="/why">
                Why Pikku?
              </Link>
              <Link className="button button--secondary button--lg" href={site.repository}>
                Source on GitHub
              </Link>
            </div>
          </div>
        </section>
      </main>
    </Layout>
  );
}
