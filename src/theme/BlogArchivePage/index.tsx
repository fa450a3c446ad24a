// The theme's archive page sets only "Archive" as its description; search results and link previews need one.
import BlogArchivePage from '@theme-original/BlogArchivePage';
import { withDescription } from '@site/src/components/PageDescription';

export default withDescription(
  BlogArchivePage,
  'Every post on the Pikku blog, newest first: releases, design notes and history.',
);
