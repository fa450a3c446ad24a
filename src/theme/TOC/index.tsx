// The desktop table of contents as a navigation landmark named "On this page". On blog posts the theme renders it
// in a column beside <main>, where it was content outside any landmark (axe's "region" rule); on docs pages it
// sits inside <main> and the landmark only names it. The landmark fills its column so the list stays sticky.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/TOC' so tsc sees a changed signature.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import TOC from '@theme-original/TOC';
import type TOCType from '@theme/TOC';
import styles from './styles.module.css';

export default function TOCWrapper(props: WrapperProps<typeof TOCType>): ReactNode {
  return (
    <nav aria-label="On this page" className={styles.landmark}>
      <TOC {...props} />
    </nav>
  );
}
