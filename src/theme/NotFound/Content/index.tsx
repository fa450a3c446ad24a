/**
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// The not-found page in the site's own words, with the ways back a reader is most likely to want.
// Unsafe swizzle (eject): a copy of the theme's component, typed by '@theme/…' Props; tests/unit/swizzles.test.mjs
// checks the theme still has it. Compare with the theme's version after a Docusaurus upgrade.
import type { ReactNode } from 'react';
import clsx from 'clsx';
import Heading from '@theme/Heading';
import type { Props } from '@theme/NotFound/Content';
import { Card, CardGrid } from '@site/src/components/CardGrid';

export default function NotFoundContent({ className }: Props): ReactNode {
  return (
    <main className={clsx('container margin-vert--xl', className)}>
      <div className="row">
        <div className="col col--8 col--offset-2">
          <Heading as="h1" className="hero__title">
            Page not found
          </Heading>
          <p>
            There is no page at this address. It may have moved when the docs were reorganized, or the link that brought
            you here has a typo.
          </p>
          <CardGrid>
            <Card title="Docs" href="/docs">
              Start from the introduction.
            </Card>
            <Card title="Find your way" href="/docs/navigation">
              The docs arranged by what you want to do.
            </Card>
            <Card title="Blog" href="/blog">
              Releases and design notes.
            </Card>
          </CardGrid>
        </div>
      </div>
    </main>
  );
}
