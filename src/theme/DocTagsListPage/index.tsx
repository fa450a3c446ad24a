// The theme's docs tags page sets no meta description; search results and link previews need one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import DocTagsListPage from '@theme-original/DocTagsListPage';
import type DocTagsListPageType from '@theme/DocTagsListPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(
  DocTagsListPage as typeof DocTagsListPageType,
  'Every topic in the Pikku docs, from authentication to WebSockets, with the pages about each.',
  sectionImage('docs'),
);
