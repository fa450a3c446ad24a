import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { features } from '@site/src/data/features';
import styles from './styles.module.css';

export default function HomeFeatures(): ReactNode {
  return (
    <section className={styles.section} aria-labelledby="features-heading">
      <div className="container">
        <h2 id="features-heading" className={styles.heading}>
          What the framework does for you
        </h2>
        <ul className={styles.grid}>
          {features.map((f) => (
            <li key={f.title} className={styles.item}>
              <h3 className={styles.title}>
                <Link to={f.href}>{f.title}</Link>
              </h3>
              <p className={styles.body}>{f.body}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
