// The theme's authors page sets no meta description; search results and link previews need one.
import BlogAuthorsListPage from '@theme-original/Blog/Pages/BlogAuthorsListPage';
import { withDescription } from '@site/src/components/PageDescription';

export default withDescription(BlogAuthorsListPage, 'Who writes the Pikku blog, with links to their posts.');
