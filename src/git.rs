//! The git edge: revisions, the staged index, the working tree and plain folders -> FileSet, read with gix.
