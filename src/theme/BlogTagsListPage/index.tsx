// The theme's blog tags page sets no meta description; search results and link previews need one.
import BlogTagsListPage from '@theme-original/BlogTagsListPage';
import { withDescription } from '@site/src/components/PageDescription';

export default withDescription(
  BlogTagsListPage,
  'Topics of the Pikku blog: releases, architecture, services, tooling and more.',
);
