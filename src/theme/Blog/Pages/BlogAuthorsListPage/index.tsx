// The theme's authors page sets no meta description; search results and link previews need one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import BlogAuthorsListPage from '@theme-original/Blog/Pages/BlogAuthorsListPage';
import type BlogAuthorsListPageType from '@theme/Blog/Pages/BlogAuthorsListPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(
  BlogAuthorsListPage as typeof BlogAuthorsListPageType,
  'Who writes the Pikku blog, with links to their posts.',
  sectionImage('blog'),
);
