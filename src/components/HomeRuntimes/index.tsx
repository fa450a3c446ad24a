import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { runtimes } from '@site/src/data/runtimes';
import styles from './styles.module.css';

export default function HomeRuntimes(): ReactNode {
  return (
    <section className={styles.section} aria-labelledby="runtimes-heading">
      <div className="container">
        <h2 id="runtimes-heading" className={styles.heading}>
          Runs where you deploy
        </h2>
        <p className={styles.intro}>
          Runtime adapters translate a platform's requests, messages and events into calls to your functions. Move from
          a long-running server to Lambda or Workers by changing the entry file, not the functions.
        </p>
        <ul className={styles.grid}>
          {runtimes.map((r) => (
            <li key={r.name}>
              <Link className={styles.card} to={r.href}>
                <span className={styles.kind}>{r.kind}</span>
                <span className={styles.name}>{r.name}</span>
                <span className={styles.runs}>{r.runs}</span>
                <code className={styles.pkg}>{r.pkg}</code>
              </Link>
            </li>
          ))}
        </ul>
        <p className={styles.more}>
          <Link to="/docs/runtimes">Compare the runtimes</Link>
          <span aria-hidden="true"> · </span>
          <Link to="/docs/custom-runtimes/http">Write your own adapter</Link>
        </p>
      </div>
    </section>
  );
}
