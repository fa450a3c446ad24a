// Keeps the theme's crash fallback ("This page crashed." and Try again) and adds a way out
// for readers whose retry fails: links to the docs home and the issue tracker.
import type { ComponentProps, ReactNode } from 'react';
import ErrorPageContent from '@theme-original/ErrorPageContent';
import Link from '@docusaurus/Link';
import { site } from '@site/src/data/site';

type Props = ComponentProps<typeof ErrorPageContent>;

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
