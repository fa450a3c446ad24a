import { createContext, useContext, type ReactNode } from 'react';

const Context = createContext(false);

/**
 * Marks a page whose component puts its content straight into the layout without a <main>: the layout
 * (src/theme/Layout) then wraps that content in one, so it is inside a landmark and the page has its main landmark.
 */
export function MainLandmark({ children }: { children: ReactNode }): ReactNode {
  return <Context.Provider value={true}>{children}</Context.Provider>;
}

/** Whether the page asked the layout for a <main> around its content. */
export const useMainLandmark = (): boolean => useContext(Context);
