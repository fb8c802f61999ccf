//! `mteval meta`: its arguments are the library's table of flags
//! ([`mteval::meta::run::FLAGS`]) turned into clap's, each value handed to
//! [`MetaRequest::set`] as Python's `mteval.meta` hands its keyword
//! arguments; the run is the library's.

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgAction, ArgMatches, Command};
use mteval::flags::{Flag, FlagKind};
use mteval::meta::run::{FLAGS, MetaRequest, output};

/// `mteval meta`'s arguments: the request they make.
#[derive(Debug)]
pub struct MetaArgs(pub MetaRequest);

/// The clap argument of one flag of the table.
fn arg(f: &Flag) -> Arg {
    let mut a = Arg::new(f.name).help(f.help);
    a = match f.kind {
        FlagKind::Positional => a.index(1),
        FlagKind::Switch => a.long(f.name).action(ArgAction::SetTrue),
        FlagKind::Value => a.long(f.name).action(ArgAction::Set),
        FlagKind::Repeat => a.long(f.name).action(ArgAction::Append),
    };
    if let Some(c) = f.short {
        a = a.short(c);
    }
    if let Some(v) = f.value_name {
        a = a.value_name(v);
    }
    if let Some(d) = f.default {
        a = a.default_value(d);
    }
    if !f.choices.is_empty() {
        a = a.value_parser(PossibleValuesParser::new(f.choices.iter().map(|(name, help)| {
            let v = PossibleValue::new(*name);
            if help.is_empty() { v } else { v.help(*help) }
        })));
    }
    a
}

impl clap::Args for MetaArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(FLAGS.iter().map(arg))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for MetaArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut r = MetaArgs(MetaRequest::default());
        r.update_from_arg_matches(m)?;
        Ok(r)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        let bad = |e: anyhow::Error| clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{e}\n"));
        for f in FLAGS {
            match f.kind {
                FlagKind::Switch => {
                    if m.get_flag(f.name) {
                        self.0.set(f.name, "true").map_err(bad)?;
                    }
                }
                _ => {
                    for v in m.get_many::<String>(f.name).into_iter().flatten() {
                        self.0.set(f.name, v).map_err(bad)?;
                    }
                }
            }
        }
        Ok(())
    }
}

pub(super) async fn run(a: &MetaArgs) -> Result<()> {
    mteval::output::write_stdout(output(&a.0).await?.as_bytes())
}
