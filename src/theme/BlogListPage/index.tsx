/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// The theme's blog list has no h1, so the page had no top-level heading for screen readers and
// search engines. Same structure as the original, plus a header naming the blog (and the page
// number after the first page).
// Unsafe swizzle (eject): a copy of the theme's component, typed by '@theme/…' Props; tests/unit/swizzles.test.mjs
// checks the theme still has it. Compare with the theme's version after a Docusaurus upgrade.
import type { ReactNode } from 'react';
import clsx from 'clsx';
import { HtmlClassNameProvider, PageMetadata, ThemeClassNames } from '@docusaurus/theme-common';
import BlogLayout from '@theme/BlogLayout';
import BlogListPaginator from '@theme/BlogListPaginator';
import SearchMetadata from '@theme/SearchMetadata';
import BlogPostItems from '@theme/BlogPostItems';
import BlogListPageStructuredData from '@theme/BlogListPage/StructuredData';
import Heading from '@theme/Heading';
import type { Props } from '@theme/BlogListPage';
import { sectionImage } from '@site/src/data/social-image';

export default function BlogListPage(props: Props): ReactNode {
  const { metadata, items, sidebar } = props;
  const { blogTitle, blogDescription, page } = metadata;
  const title = page > 1 ? `${blogTitle}, page ${page}` : blogTitle;
  return (
    <HtmlClassNameProvider className={clsx(ThemeClassNames.wrapper.blogPages, ThemeClassNames.page.blogListPage)}>
      <PageMetadata title={title} description={blogDescription} image={sectionImage('blog')} />
      <SearchMetadata tag="blog_posts_list" />
      <BlogListPageStructuredData {...props} />
      <BlogLayout sidebar={sidebar}>
        <header className="margin-bottom--xl">
          <Heading as="h1">{title}</Heading>
          <p className="margin-bottom--none">{blogDescription}</p>
        </header>
        <BlogPostItems items={items} />
        <BlogListPaginator metadata={metadata} />
      </BlogLayout>
    </HtmlClassNameProvider>
  );
}
