// The search plugin's results page, with its content inside <main> (see src/theme/Layout).
// Unsafe swizzle (wrap): the search plugin's SearchPage is not in the classic theme's swizzle list, so it may change
// in any release; tests/unit/swizzles.test.mjs checks that it still exists, and its type comes from
// '@theme/SearchPage'.
import type { ReactNode } from 'react';
import type { WrapperProps } from '@docusaurus/types';
import SearchPage from '@theme-original/SearchPage';
import type SearchPageType from '@theme/SearchPage';
import { MainLandmark } from '@site/src/components/MainLandmark';

export default function SearchPageWrapper(props: WrapperProps<typeof SearchPageType>): ReactNode {
  return (
    <MainLandmark>
      <SearchPage {...props} />
    </MainLandmark>
  );
}
