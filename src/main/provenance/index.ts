/**
 * Provenance (docs/risk.md, "Provenance"): what a tool's output is and what a call does with data
 * (the vocabulary every tool declares), which untrusted sources and which values have entered a
 * conversation, and the findings a call gets from them. Below tools/ and agent/: imports neither.
 */
export {
  isOutputSource,
  isToolSink,
  noSink,
  NO_SINK,
  persistsTo,
  PersistChannels,
  sendsTo,
  SendChannels,
  trusted,
  untrusted,
  UntrustedSourceKinds,
  type CallSink,
  type OutputSource,
  type PersistChannel,
  type SendChannel,
  type ToolSink,
  type UntrustedSourceKind
} from './kinds'
export { fileWriteSink, isRunFile } from './run-files'
export { commandSink } from './command-sink'
export { argumentPieces, hashValue, MIN_VALUE_LENGTH, normalise, outputPieces, type Piece } from './values'
export { hostOf, namedDestinations, type NamedDestinations } from './destinations'
export {
  DEFAULT_TRACKER_LIMITS,
  ProvenanceBook,
  ProvenanceTracker,
  type CarriedValue,
  type EnteredSource,
  type SecretTest,
  type TrackerLimits,
  type ValueOrigin
} from './tracker'
export { describeSources, provenanceFindings, type CallProvenance, type ProvenanceRule } from './judge'
export { escapeDelimiters, markContent, markSummary, sourceLabel, UNTRUSTED_CONTENT_RULE, UNTRUSTED_TAG } from './delimiters'
