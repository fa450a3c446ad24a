// Puts a page's content in <main> when the page asks for it with <MainLandmark> (src/components/MainLandmark): the
// search plugin's results page renders into the layout with no <main>, which axe reports (landmark-one-main,
// region). Every other page brings its own <main> and is passed through unchanged.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/Layout' so tsc sees a changed signature.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import Layout from '@theme-original/Layout';
import type LayoutType from '@theme/Layout';
import { useMainLandmark } from '@site/src/components/MainLandmark';

export default function LayoutWrapper({ children, ...props }: WrapperProps<typeof LayoutType>): ReactNode {
  const wrap = useMainLandmark();
  return <Layout {...props}>{wrap ? <main>{children}</main> : children}</Layout>;
}
