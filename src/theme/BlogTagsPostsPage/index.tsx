// A blog tag's page shares the blog's social image (src/data/social.ts); the theme's falls back to the home one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import BlogTagsPostsPage from '@theme-original/BlogTagsPostsPage';
import type BlogTagsPostsPageType from '@theme/BlogTagsPostsPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(BlogTagsPostsPage as typeof BlogTagsPostsPageType, undefined, sectionImage('blog'));
