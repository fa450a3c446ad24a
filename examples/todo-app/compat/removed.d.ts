// '@pikku/core/ecosystem' and '@pikku/core/ecosystem/*' were removed in 0.12.85: nothing is exported here.
export {}
