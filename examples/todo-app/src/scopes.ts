import { defineScope } from '@pikku/core/scope'

// The app's scope tree. defineScope does nothing at run time: the CLI reads it and generates the ScopeId
// union that a function's `scopes` is typed with, so a scope that is not declared here does not compile.
defineScope({
  todos: {
    displayName: 'To-do lists',
    scopes: {
      read: { description: 'Read to-do items' },
      export: { description: 'Export your to-do items in one call' },
    },
  },
})
