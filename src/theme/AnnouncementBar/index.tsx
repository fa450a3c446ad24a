// The theme hides a dismissed bar with CSS keyed on an attribute that its inline script sets
// from storage before hydration. When the bar's id changes (a new release), the theme resets the
// dismissal but leaves that attribute, so the new bar stayed hidden until the next page load.
// Clearing the attribute once the bar is active shows it at once.
import { useEffect, type ReactNode } from 'react';
import AnnouncementBar from '@theme-original/AnnouncementBar';
import { useAnnouncementBar } from '@docusaurus/theme-common/internal';

export default function AnnouncementBarWrapper(): ReactNode {
  const { isActive } = useAnnouncementBar();
  useEffect(() => {
    if (isActive) document.documentElement.setAttribute('data-announcement-bar-initially-dismissed', 'false');
  }, [isActive]);
  return <AnnouncementBar />;
}
