//! The tool's GPU tests, one binary: `tilegraph run` on the adapter `TILEGRAPH_BACKEND` picks (a
//! software one on CI); no adapter fails the test with the tool's message.

mod apitrace;
mod inputs;
mod replay;
mod run;
mod vendor;
