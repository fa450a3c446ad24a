// Adds "Copy page" (the page as Markdown, and a link to its .md copy) above every docs, skills and why page.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import { useDoc } from '@docusaurus/plugin-content-docs/client';
import CopyPage from '@site/src/components/CopyPage';

export default function ContentWrapper(props: WrapperProps<typeof ContentType>): ReactNode {
  const { metadata } = useDoc();
  return (
    <>
      <CopyPage permalink={metadata.permalink} />
      <Content {...props} />
    </>
  );
}
