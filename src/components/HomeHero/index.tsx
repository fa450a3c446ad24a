import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { installCommand } from '@site/src/data/showcase';
import styles from './styles.module.css';

const transports = ['HTTP', 'WebSockets', 'queues', 'cron', 'RPC', 'MCP', 'CLI'];

export default function HomeHero(): ReactNode {
  return (
    <header className={styles.hero}>
      <div className="container">
        <p className={styles.eyebrow}>TypeScript backend framework, MIT-licensed at run time</p>
        <h1 className={styles.title}>
          Write functions once.
          <br />
          <span className={styles.accent}>Wire them to everything.</span>
        </h1>
        <p className={styles.lead}>
          Pikku turns plain async TypeScript functions into endpoints for{' '}
          {transports.map((t, i) => (
            <span key={t}>
              <strong>{t}</strong>
              {i < transports.length - 2 ? ', ' : i === transports.length - 2 ? ' and ' : ''}
            </span>
          ))}
          , with input validation and typed clients generated from your types and the same permission checks on each.
          Adapters run the same code on Express, Fastify, uWebSockets.js, Next.js, AWS Lambda, Cloudflare Workers and
          more.
        </p>
        <div className={styles.actions}>
          <Link className="button button--primary button--lg" to="/docs">
            Read the docs
          </Link>
          <Link className="button button--secondary button--lg" to="/manual-setup">
            Set up a project
          </Link>
        </div>
        <p className={styles.install}>
          <span className={styles.installLabel}>Or scaffold one:</span> <code>{installCommand}</code>
        </p>
      </div>
    </header>
  );
}
