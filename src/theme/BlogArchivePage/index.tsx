// The theme's archive page sets only "Archive" as its description; search results and link previews need one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import BlogArchivePage from '@theme-original/BlogArchivePage';
import type BlogArchivePageType from '@theme/BlogArchivePage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(
  BlogArchivePage as typeof BlogArchivePageType,
  'Every post on the Pikku blog, newest first: releases, design notes and history.',
  sectionImage('blog'),
);
