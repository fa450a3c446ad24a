/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// Ejected from @docusaurus/theme-classic 3.10 (BlogArchivePage) for three changes, marked "Changed:". The theme's
// page puts its <header> outside <main>, a second banner landmark next to the announcement bar, and jumps from the
// h1 to h3 year headings (axe: landmark-no-duplicate-banner, landmark-unique, heading-order); and it sets only
// "Archive" as its description. No option or wrapper reaches either.
// Unsafe swizzle (eject): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists.
import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { translate } from '@docusaurus/Translate';
import { PageMetadata } from '@docusaurus/theme-common';
import { useDateTimeFormat } from '@docusaurus/theme-common/internal';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import type { Props } from '@theme/BlogArchivePage';
import { sectionImage } from '@site/src/data/social-image';

type ArchivePost = Props['archive']['blogPosts'][number];

function Year({ year, posts }: { year: string; posts: ArchivePost[] }): ReactNode {
  const dateTimeFormat = useDateTimeFormat({ day: 'numeric', month: 'long', timeZone: 'UTC' });
  const formatDate = (lastUpdated: string) => dateTimeFormat.format(new Date(lastUpdated));
  return (
    <>
      {/* Changed: h2, the level after the page's h1. */}
      <Heading as="h2" id={year}>
        {year}
      </Heading>
      <ul>
        {posts.map((post) => (
          <li key={post.metadata.date}>
            <Link to={post.metadata.permalink}>
              {formatDate(post.metadata.date)} - {post.metadata.title}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

function listPostsByYears(blogPosts: readonly ArchivePost[]): { year: string; posts: ArchivePost[] }[] {
  const postsByYear = blogPosts.reduce((posts, post) => {
    const year = post.metadata.date.split('-')[0];
    return posts.set(year, [post, ...(posts.get(year) ?? [])]);
  }, new Map<string, ArchivePost[]>());
  return Array.from(postsByYear, ([year, posts]) => ({ year, posts }));
}

export default function BlogArchive({ archive }: Props): ReactNode {
  const title = translate({
    id: 'theme.blog.archive.title',
    message: 'Archive',
    description: 'The page & hero title of the blog archive page',
  });
  // Changed: a description that says what the page holds.
  const description = 'Every post on the Pikku blog, newest first: releases, design notes and history.';
  const years = listPostsByYears(archive.blogPosts);
  return (
    <>
      <PageMetadata title={title} description={description} image={sectionImage('blog')} />
      <Layout>
        {/* Changed: the header inside <main>, where it is not a banner landmark. */}
        <main>
          <header className="hero hero--primary">
            <div className="container">
              <Heading as="h1" className="hero__title">
                {title}
              </Heading>
              <p className="hero__subtitle">{description}</p>
            </div>
          </header>
          {years.length > 0 && (
            <section className="margin-vert--lg">
              <div className="container">
                <div className="row">
                  {years.map((props) => (
                    <div key={props.year} className="col col--4 margin-vert--lg">
                      <Year {...props} />
                    </div>
                  ))}
                </div>
              </div>
            </section>
          )}
        </main>
      </Layout>
    </>
  );
}
