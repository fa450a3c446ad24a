// The theme's blog tags page sets no meta description; search results and link previews need one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import BlogTagsListPage from '@theme-original/BlogTagsListPage';
import type BlogTagsListPageType from '@theme/BlogTagsListPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(
  BlogTagsListPage as typeof BlogTagsListPageType,
  'Topics of the Pikku blog: releases, architecture, services, tooling and more.',
  sectionImage('blog'),
);
