// An author's pages had no meta description; they get one naming the author, and the blog's social image
// (src/data/social.ts) instead of the home one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import BlogAuthorsPostsPage from '@theme-original/Blog/Pages/BlogAuthorsPostsPage';
import type BlogAuthorsPostsPageType from '@theme/Blog/Pages/BlogAuthorsPostsPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(
  BlogAuthorsPostsPage as typeof BlogAuthorsPostsPageType,
  ({ author }) => `Every post ${author.name ?? 'this author'} wrote on the Pikku blog: releases, design notes and history.`,
  sectionImage('blog'),
);
