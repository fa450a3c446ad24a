import type { ComponentType, ReactNode } from 'react';
import Head from '@docusaurus/Head';
import { PageMetadata } from '@docusaurus/theme-common';

/**
 * Gives a theme page a real meta description (and its Open Graph twin), fixed or made from the page's props, and
 * optionally its section's social image.
 */
export function withDescription<P extends object>(
  Page: ComponentType<P>,
  description?: string | ((props: P) => string),
  image?: string,
) {
  return function PageWithDescription(props: P): ReactNode {
    const text = typeof description === 'function' ? description(props) : description;
    return (
      <>
        <Page {...props} />
        {/* After the page: the last Head to set a tag wins, and some theme pages set a one-word one. */}
        {text && (
          <Head>
            <meta name="description" content={text} />
            <meta property="og:description" content={text} />
          </Head>
        )}
        {image && <PageMetadata image={image} />}
      </>
    );
  };
}
