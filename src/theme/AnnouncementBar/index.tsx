// The theme hides a dismissed bar with CSS keyed on an attribute that its inline script sets
// from storage before hydration. When the bar's id changes (a new release), the theme resets the
// dismissal but leaves that attribute, so the new bar stayed hidden until the next page load.
// Clearing the attribute once the bar is active shows it at once.
// Unsafe swizzle (wrap): Docusaurus may change this component in any release; tests/unit/swizzles.test.mjs
// checks that it still exists, and its type comes from '@theme/…' so tsc sees a changed signature.
import { useEffect, type ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import AnnouncementBar from '@theme-original/AnnouncementBar';
import type AnnouncementBarType from '@theme/AnnouncementBar';
import { useAnnouncementBar } from '@docusaurus/theme-common/internal';

export default function AnnouncementBarWrapper(props: WrapperProps<typeof AnnouncementBarType>): ReactNode {
  const { isActive } = useAnnouncementBar();
  useEffect(() => {
    if (isActive) document.documentElement.setAttribute('data-announcement-bar-initially-dismissed', 'false');
  }, [isActive]);
  return <AnnouncementBar {...props} />;
}
