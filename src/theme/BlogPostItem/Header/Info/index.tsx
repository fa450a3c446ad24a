// Unsafe swizzle (eject) of BlogPostItem/Header/Info, the date and reading time under a post's title. One change: the
// date is formatted by formatPostDate (src/data/dates.ts) instead of an Intl.DateTimeFormat built on every render.
// The first one a page builds loads the locale's calendar data, and that happened while each post hydrated, in one
// of the page's longest tasks. The site has one locale (en); tests/unit/dates.test.mjs checks the two agree.
import type { ReactNode } from 'react';
import clsx from 'clsx';
import { translate } from '@docusaurus/Translate';
import { usePluralForm } from '@docusaurus/theme-common';
import { useBlogPost } from '@docusaurus/plugin-content-blog/client';
import type { Props } from '@theme/BlogPostItem/Header/Info';
import { formatPostDate } from '@site/src/data/dates';
import styles from './styles.module.css';

function ReadingTime({ readingTime }: { readingTime: number }): ReactNode {
  const { selectMessage } = usePluralForm();
  const minutes = Math.ceil(readingTime);
  return selectMessage(
    minutes,
    translate(
      {
        id: 'theme.blog.post.readingTime.plurals',
        description: 'Pluralized label for "{readingTime} min read", as in the classic theme',
        message: 'One min read|{readingTime} min read',
      },
      { readingTime: minutes },
    ),
  );
}

export default function BlogPostItemHeaderInfo({ className }: Props): ReactNode {
  const { metadata } = useBlogPost();
  const { date, readingTime } = metadata;
  return (
    <div className={clsx(styles.container, 'margin-vert--md', className)}>
      <time dateTime={date}>{formatPostDate(date)}</time>
      {typeof readingTime !== 'undefined' && (
        <>
          {' · '}
          <ReadingTime readingTime={readingTime} />
        </>
      )}
    </div>
  );
}
