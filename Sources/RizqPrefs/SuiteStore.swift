// SuiteStore lands here.
