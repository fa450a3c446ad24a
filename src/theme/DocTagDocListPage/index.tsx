// A docs tag's page shares the docs' social image (src/data/social.ts); the theme's falls back to the home one.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import DocTagDocListPage from '@theme-original/DocTagDocListPage';
import type DocTagDocListPageType from '@theme/DocTagDocListPage';
import { withDescription } from '@site/src/components/PageDescription';
import { sectionImage } from '@site/src/data/social-image';

export default withDescription(DocTagDocListPage as typeof DocTagDocListPageType, undefined, sectionImage('docs'));
