import type { ReactNode } from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

export type IconName = 'github' | 'x' | 'discord';

/** 24x24 single-path marks, drawn with currentColor so they follow the navbar's colors. */
const paths: Record<IconName, string> = {
  github:
    'M12 .5a11.5 11.5 0 0 0-3.64 22.41c.58.1.79-.25.79-.56v-2c-3.2.7-3.88-1.37-3.88-1.37-.52-1.33-1.28-1.69-1.28-1.69-1.05-.71.08-.7.08-.7 1.16.08 1.77 1.19 1.77 1.19 1.03 1.76 2.7 1.25 3.36.96.1-.75.4-1.25.73-1.54-2.56-.29-5.25-1.28-5.25-5.7 0-1.26.45-2.29 1.19-3.1-.12-.29-.52-1.46.11-3.05 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.63 1.59.23 2.76.11 3.05.74.81 1.19 1.84 1.19 3.1 0 4.43-2.7 5.41-5.27 5.69.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 12 .5Z',
  x: 'M17.75 2.5h3.1l-6.77 7.74L22 21.5h-6.23l-4.88-6.38-5.58 6.38H2.2l7.24-8.28L1.86 2.5h6.39l4.41 5.83 5.09-5.83Zm-1.09 17.13h1.72L7.4 4.27H5.56l11.1 15.36Z',
  discord:
    'M20.32 4.37A19.8 19.8 0 0 0 15.4 2.85l-.24.48a18.3 18.3 0 0 1 4.38 1.5 16.5 16.5 0 0 0-15.08 0 18.3 18.3 0 0 1 4.38-1.5l-.24-.48a19.8 19.8 0 0 0-4.92 1.52C.54 9.04-.32 13.58.1 18.06a19.9 19.9 0 0 0 6.04 3.05l1.3-1.77a12.9 12.9 0 0 1-2.05-.98l.5-.38a14.2 14.2 0 0 0 12.22 0l.5.38c-.65.38-1.34.71-2.05.98l1.3 1.77a19.9 19.9 0 0 0 6.04-3.05c.5-5.2-.84-9.7-3.58-13.69ZM8.02 15.3c-1.18 0-2.15-1.08-2.15-2.42 0-1.33.95-2.42 2.15-2.42 1.2 0 2.17 1.09 2.15 2.42 0 1.34-.95 2.42-2.15 2.42Zm7.96 0c-1.18 0-2.15-1.08-2.15-2.42 0-1.33.95-2.42 2.15-2.42 1.2 0 2.17 1.09 2.15 2.42 0 1.34-.95 2.42-2.15 2.42Z',
};

export type Props = {
  icon: IconName;
  href: string;
  /** The accessible name, also shown as text in the mobile drawer. */
  label: string;
  mobile?: boolean;
  className?: string;
};

/** An external link shown as an icon in the navbar and as icon + text in the mobile drawer. */
export default function NavbarIconLink({ icon, href, label, mobile, className }: Props): ReactNode {
  const svg = (
    <svg className={styles.icon} viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={paths[icon]} />
    </svg>
  );
  if (mobile) {
    return (
      <li className="menu__list-item">
        <a
          className={clsx('menu__link', styles.mobileLink, className)}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
        >
          {svg}
          <span>{label}</span>
        </a>
      </li>
    );
  }
  return (
    <a
      className={clsx('navbar__item navbar__link', styles.link, className)}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
    >
      {svg}
    </a>
  );
}
