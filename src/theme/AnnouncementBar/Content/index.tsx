/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// Replaces the theme's HTML-string content so the bar's link is a real <Link> to the newest
// release post: the build then checks the link, and it navigates without a full reload.
// Unsafe swizzle (eject): a copy of the theme's component, typed by '@theme/…' Props; tests/unit/swizzles.test.mjs
// checks the theme still has it. Compare with the theme's version after a Docusaurus upgrade.
import type { ReactNode } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import type { Props } from '@theme/AnnouncementBar/Content';
import { latestRelease, latestReleaseHref } from '@site/src/data/site';
import styles from './styles.module.css';

export default function AnnouncementBarContent(props: Props): ReactNode {
  return (
    <div {...props} className={clsx(styles.content, props.className)}>
      <Link to={latestReleaseHref}>{latestRelease.headline}</Link>
    </div>
  );
}
