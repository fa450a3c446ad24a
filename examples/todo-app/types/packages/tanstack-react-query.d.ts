// Typed stand-in for @tanstack/react-query 5 (not installed in this repository, which must not add dependencies
// for one docs page). The generated React Query hooks (.pikku/pikku-react-query.gen.ts) import it, so it holds the
// names that file and the docs' samples use, modelled on the published 5.108.0 typings
// (build/modern/{useQuery,useInfiniteQuery,useMutation,types,QueryClientProvider}.d.ts and query-core's types).
// NOT modelled (left out on purpose): the initialData overloads (DefinedUseQueryResult), suspense hooks, useQueries,
// queryOptions/infiniteQueryOptions helpers, hydration, and most QueryClient methods and observer options; the
// result unions are merged where the real ones differ only in flags no page here reads.

declare module '@tanstack/react-query' {
  import type { JSX, ReactNode } from 'react'

  export type DefaultError = Error
  export type QueryKey = ReadonlyArray<unknown>
  export type MutationKey = ReadonlyArray<unknown>

  /** The cache entry of an infinite query: every page fetched so far, and the page param each was fetched with. */
  export interface InfiniteData<TData, TPageParam = unknown> {
    pages: TData[]
    pageParams: TPageParam[]
  }

  export interface QueryFilters {
    /** Matches every query whose key starts with this one, unless `exact` is set. */
    queryKey?: QueryKey
    exact?: boolean
  }

  export class QueryClient {
    constructor(config?: {
      defaultOptions?: {
        queries?: { staleTime?: number; gcTime?: number; retry?: boolean | number; refetchOnWindowFocus?: boolean }
        mutations?: { retry?: boolean | number }
      }
    })
    invalidateQueries(filters?: QueryFilters): Promise<void>
    cancelQueries(filters?: QueryFilters): Promise<void>
    getQueryData<TQueryFnData = unknown>(queryKey: QueryKey): TQueryFnData | undefined
    setQueryData<TQueryFnData = unknown>(
      queryKey: QueryKey,
      updater: TQueryFnData | undefined | ((oldData: TQueryFnData | undefined) => TQueryFnData | undefined),
    ): TQueryFnData | undefined
    clear(): void
  }

  export function QueryClientProvider(props: { client: QueryClient; children?: ReactNode }): JSX.Element
  /** The client of the nearest QueryClientProvider; throws when there is none. */
  export function useQueryClient(queryClient?: QueryClient): QueryClient

  export type QueryFunctionContext<TQueryKey extends QueryKey = QueryKey, TPageParam = never> = {
    queryKey: TQueryKey
    signal: AbortSignal
    meta: Record<string, unknown> | undefined
  } & ([TPageParam] extends [never] ? {} : { pageParam: TPageParam })

  interface QueryOptionsBase<TError> {
    enabled?: boolean
    staleTime?: number
    gcTime?: number
    retry?: boolean | number | ((failureCount: number, error: TError) => boolean)
    refetchInterval?: number | false
    refetchOnWindowFocus?: boolean
    meta?: Record<string, unknown>
  }

  export interface UseQueryOptions<
    TQueryFnData = unknown,
    TError = DefaultError,
    TData = TQueryFnData,
    TQueryKey extends QueryKey = QueryKey,
  > extends QueryOptionsBase<TError> {
    queryKey: TQueryKey
    queryFn?: (context: QueryFunctionContext<TQueryKey>) => TQueryFnData | Promise<TQueryFnData>
    select?: (data: TQueryFnData) => TData
  }

  interface QueryResultBase<TData, TError> {
    isFetching: boolean
    isRefetching: boolean
    failureCount: number
    dataUpdatedAt: number
    refetch: () => Promise<UseQueryResult<TData, TError>>
  }

  /** Narrow on `status` (or `isPending` / `isError` / `isSuccess`) before reading `data`. */
  export type UseQueryResult<TData = unknown, TError = DefaultError> =
    | (QueryResultBase<TData, TError> & {
        status: 'pending'
        data: undefined
        error: null
        isPending: true
        isLoading: boolean
        isError: false
        isSuccess: false
      })
    | (QueryResultBase<TData, TError> & {
        status: 'error'
        /** The last good data, when a refetch failed. */
        data: TData | undefined
        error: TError
        isPending: false
        isLoading: false
        isError: true
        isSuccess: false
      })
    | (QueryResultBase<TData, TError> & {
        status: 'success'
        data: TData
        error: null
        isPending: false
        isLoading: false
        isError: false
        isSuccess: true
      })

  export function useQuery<
    TQueryFnData = unknown,
    TError = DefaultError,
    TData = TQueryFnData,
    TQueryKey extends QueryKey = QueryKey,
  >(options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>, queryClient?: QueryClient): UseQueryResult<TData, TError>

  export type GetNextPageParamFunction<TPageParam, TQueryFnData = unknown> = (
    lastPage: TQueryFnData,
    allPages: TQueryFnData[],
    lastPageParam: TPageParam,
    allPageParams: TPageParam[],
  ) => TPageParam | undefined | null

  export interface UseInfiniteQueryOptions<
    TQueryFnData = unknown,
    TError = DefaultError,
    TData = TQueryFnData,
    TQueryKey extends QueryKey = QueryKey,
    TPageParam = unknown,
  > extends QueryOptionsBase<TError> {
    queryKey: TQueryKey
    queryFn?: (context: QueryFunctionContext<TQueryKey, TPageParam>) => TQueryFnData | Promise<TQueryFnData>
    initialPageParam: TPageParam
    /** Returns the param of the page after `lastPage`, or undefined / null when there is none. */
    getNextPageParam: GetNextPageParamFunction<TPageParam, TQueryFnData>
    getPreviousPageParam?: GetNextPageParamFunction<TPageParam, TQueryFnData>
    maxPages?: number
    select?: (data: InfiniteData<TQueryFnData, TPageParam>) => TData
  }

  export type UseInfiniteQueryResult<TData = unknown, TError = DefaultError> = UseQueryResult<TData, TError> & {
    fetchNextPage: () => Promise<unknown>
    fetchPreviousPage: () => Promise<unknown>
    hasNextPage: boolean
    hasPreviousPage: boolean
    isFetchingNextPage: boolean
    isFetchingPreviousPage: boolean
  }

  export function useInfiniteQuery<
    TQueryFnData,
    TError = DefaultError,
    TData = InfiniteData<TQueryFnData>,
    TQueryKey extends QueryKey = QueryKey,
    TPageParam = unknown,
  >(
    options: UseInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
    queryClient?: QueryClient,
  ): UseInfiniteQueryResult<TData, TError>

  export interface MutationFunctionContext {
    client: QueryClient
    mutationKey?: MutationKey
    meta: Record<string, unknown> | undefined
  }

  export type MutationFunction<TData = unknown, TVariables = unknown> = (
    variables: TVariables,
    context: MutationFunctionContext,
  ) => Promise<TData>

  export interface UseMutationOptions<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> {
    mutationFn?: MutationFunction<TData, TVariables>
    mutationKey?: MutationKey
    onMutate?: (variables: TVariables, context: MutationFunctionContext) => Promise<TOnMutateResult> | TOnMutateResult
    onSuccess?: (
      data: TData,
      variables: TVariables,
      onMutateResult: TOnMutateResult,
      context: MutationFunctionContext,
    ) => Promise<unknown> | unknown
    onError?: (
      error: TError,
      variables: TVariables,
      onMutateResult: TOnMutateResult | undefined,
      context: MutationFunctionContext,
    ) => Promise<unknown> | unknown
    onSettled?: (
      data: TData | undefined,
      error: TError | null,
      variables: TVariables,
      onMutateResult: TOnMutateResult | undefined,
      context: MutationFunctionContext,
    ) => Promise<unknown> | unknown
    retry?: boolean | number | ((failureCount: number, error: TError) => boolean)
    meta?: Record<string, unknown>
  }

  export interface MutateOptions<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> {
    onSuccess?: (data: TData, variables: TVariables, onMutateResult: TOnMutateResult, context: MutationFunctionContext) => void
    onError?: (error: TError, variables: TVariables, onMutateResult: TOnMutateResult | undefined, context: MutationFunctionContext) => void
    onSettled?: (
      data: TData | undefined,
      error: TError | null,
      variables: TVariables,
      onMutateResult: TOnMutateResult | undefined,
      context: MutationFunctionContext,
    ) => void
  }

  export type UseMutateFunction<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = (
    variables: TVariables,
    options?: MutateOptions<TData, TError, TVariables, TOnMutateResult>,
  ) => void

  export type UseMutateAsyncFunction<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = (
    variables: TVariables,
    options?: MutateOptions<TData, TError, TVariables, TOnMutateResult>,
  ) => Promise<TData>

  export type UseMutationResult<TData = unknown, TError = DefaultError, TVariables = unknown, TOnMutateResult = unknown> = {
    /** Runs the mutation; errors go to the callbacks and `error`, not to the caller. */
    mutate: UseMutateFunction<TData, TError, TVariables, TOnMutateResult>
    /** Runs the mutation and returns its promise, which rejects on error. */
    mutateAsync: UseMutateAsyncFunction<TData, TError, TVariables, TOnMutateResult>
    reset: () => void
    variables: TVariables | undefined
    failureCount: number
    submittedAt: number
  } & (
    | { status: 'idle'; data: undefined; error: null; isIdle: true; isPending: false; isError: false; isSuccess: false }
    | { status: 'pending'; data: undefined; error: null; isIdle: false; isPending: true; isError: false; isSuccess: false }
    | { status: 'error'; data: undefined; error: TError; isIdle: false; isPending: false; isError: true; isSuccess: false }
    | { status: 'success'; data: TData; error: null; isIdle: false; isPending: false; isError: false; isSuccess: true }
  )

  export function useMutation<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>(
    options: UseMutationOptions<TData, TError, TVariables, TOnMutateResult>,
    queryClient?: QueryClient,
  ): UseMutationResult<TData, TError, TVariables, TOnMutateResult>

  export {}
}
