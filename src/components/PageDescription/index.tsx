import type { ComponentType, ReactNode } from 'react';
import Head from '@docusaurus/Head';
import { PageMetadata } from '@docusaurus/theme-common';

/** Gives a theme page a real meta description (and its Open Graph twin), and optionally its section's social image. */
export function withDescription<P extends object>(Page: ComponentType<P>, description?: string, image?: string) {
  return function PageWithDescription(props: P): ReactNode {
    return (
      <>
        <Page {...props} />
        {/* After the page: the last Head to set a tag wins, and some theme pages set a one-word one. */}
        {description && (
          <Head>
            <meta name="description" content={description} />
            <meta property="og:description" content={description} />
          </Head>
        )}
        {image && <PageMetadata image={image} />}
      </>
    );
  };
}
