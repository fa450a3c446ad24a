// The theme's docs tags page sets no meta description; search results and link previews need one.
import DocTagsListPage from '@theme-original/DocTagsListPage';
import { withDescription } from '@site/src/components/PageDescription';

export default withDescription(
  DocTagsListPage,
  'Every topic in the Pikku docs, from authentication to WebSockets, with the pages about each.',
);
