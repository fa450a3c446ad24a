import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import styles from './styles.module.css';

export function CardGrid({ children }: { children: ReactNode }): ReactNode {
  return <div className={styles.grid}>{children}</div>;
}

type CardProps = { title: string; href: string; children?: ReactNode };

/** A linked card; `href` is a route, so the build checks it like any other link. */
export function Card({ title, href, children }: CardProps): ReactNode {
  return (
    <Link className={styles.card} to={href}>
      <span className={styles.title}>{title}</span>
      {children ? <span className={styles.body}>{children}</span> : null}
    </Link>
  );
}
