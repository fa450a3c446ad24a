// Keeps the theme's crash fallback ("This page crashed." and Try again) and adds a way out
// for readers whose retry fails: links to the docs home and the issue tracker.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import ErrorPageContent from '@theme-original/ErrorPageContent';
import type ErrorPageContentType from '@theme/ErrorPageContent';
import Link from '@docusaurus/Link';
import { site } from '@site/src/data/site';

type Props = WrapperProps<typeof ErrorPageContentType>;

export default function ErrorPageContentWrapper(props: Props): ReactNode {
  return (
    <>
      <ErrorPageContent {...props} />
      <p className="container text--center margin-bottom--xl">
        If it happens again, go back to the <Link to="/docs">docs</Link> or{' '}
        <a href={`${site.repository}/issues`}>tell us on GitHub</a>.
      </p>
    </>
  );
}
