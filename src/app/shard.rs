//! `--shard`: which slice of a run this process plays. `K/N` says it outright; `auto` takes it
//! from the scheduler that started the process, so one job script serves every slice:
//!
//! - a Slurm job array (`sbatch --array=1-8`): `SLURM_ARRAY_TASK_ID` among
//!   `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_STEP` and `SLURM_ARRAY_TASK_COUNT`;
//! - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (from 0), with the count given, as
//!   `--shard auto/8` (the pod does not know how many completions its job has).
//!
//! The environment is passed in, so the rules are tested without a scheduler.

/// The slice `(k, n)`, 1 <= k <= n, that `text` names, reading the scheduler's variables
/// through `env` for `auto`.
pub fn parse(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<(u64, u64), String> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("auto") {
        let count = match rest.strip_prefix('/') {
            Some(n) => Some(number(n, "the count in `--shard auto/N`")?),
            None if rest.is_empty() => None,
            None => return Err(usage()),
        };
        return auto(count, env);
    }
    let (k, n) = text.split_once('/').ok_or_else(usage)?;
    let (k, n) = (number(k, "K")?, number(n, "N")?);
    check((k, n)).ok_or_else(usage)
}

fn usage() -> String {
    "`--shard K/N` needs 1 <= K <= N, like `--shard 2/4`; `--shard auto` takes the slice from a \
     Slurm job array, `--shard auto/N` from a Kubernetes Indexed Job of N completions"
        .to_string()
}

fn number(text: &str, what: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("{what} is not a whole number: `{}`", text.trim()))
}

fn check((k, n): (u64, u64)) -> Option<(u64, u64)> {
    (n >= 1 && (1..=n).contains(&k)).then_some((k, n))
}

fn auto(count: Option<u64>, env: &dyn Fn(&str) -> Option<String>) -> Result<(u64, u64), String> {
    let var = |name: &str| -> Result<Option<u64>, String> {
        env(name)
            .map(|v| number(&v, &format!("`{name}`")))
            .transpose()
    };
    if let Some(id) = var("SLURM_ARRAY_TASK_ID")? {
        let min = var("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = var("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let tasks = var("SLURM_ARRAY_TASK_COUNT")?.ok_or(
            "`--shard auto` in a Slurm job array needs `SLURM_ARRAY_TASK_COUNT` (Slurm 17.02 or \
             later sets it); or give the slice as `--shard K/N`",
        )?;
        if id < min || (id - min) % step != 0 {
            return Err(format!(
                "`SLURM_ARRAY_TASK_ID` {id} is not in the array (from {min}, step {step})"
            ));
        }
        let k = (id - min) / step + 1;
        if let Some(n) = count.filter(|n| *n != tasks) {
            return Err(format!(
                "`--shard auto/{n}` but the Slurm array has {tasks} tasks: drop the `/{n}`"
            ));
        }
        return check((k, tasks)).ok_or_else(|| {
            format!(
                "Slurm task {id} is task {k} of an array of {tasks}: the array must be one \
                 range (`--array=1-{tasks}`), not a list of indexes"
            )
        });
    }
    if let Some(index) = var("JOB_COMPLETION_INDEX")? {
        let n = count.ok_or(
            "`JOB_COMPLETION_INDEX` is set (a Kubernetes Indexed Job) but the number of \
             completions is not: give it as `--shard auto/N`",
        )?;
        return check((index + 1, n)).ok_or_else(|| {
            format!(
                "`JOB_COMPLETION_INDEX` {index} is not below the {n} completions of \
                 `--shard auto/{n}`"
            )
        });
    }
    Err(
        "`--shard auto` found no scheduler: it reads `SLURM_ARRAY_TASK_ID` (a Slurm job array) \
         or `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job); elsewhere give `--shard K/N`"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn k_of_n_is_read_as_written() {
        let none = env(&[]);
        assert_eq!(parse("2/4", &none), Ok((2, 4)));
        assert_eq!(parse(" 1 / 1 ", &none), Ok((1, 1)));
        for bad in ["0/4", "5/4", "2/0", "2", "a/b", "-1/4", "2/4/6", "autox"] {
            assert!(parse(bad, &none).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_slurm_array_gives_the_slice_from_any_first_index_and_step() {
        let slurm = |id: &str, min: &str, step: &str, count: &str| {
            env(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_STEP", step),
                ("SLURM_ARRAY_TASK_COUNT", count),
            ])
        };
        assert_eq!(parse("auto", &slurm("1", "1", "1", "4")), Ok((1, 4)));
        assert_eq!(parse("auto", &slurm("4", "1", "1", "4")), Ok((4, 4)));
        assert_eq!(parse("auto", &slurm("0", "0", "1", "8")), Ok((1, 8)));
        assert_eq!(parse("auto", &slurm("12", "0", "4", "4")), Ok((4, 4)));
        assert_eq!(parse("auto/4", &slurm("3", "1", "1", "4")), Ok((3, 4)));
        assert!(parse("auto/5", &slurm("3", "1", "1", "4")).is_err());
        assert!(
            parse("auto", &slurm("5", "0", "2", "4")).is_err(),
            "off the step"
        );
        assert!(
            parse("auto", &slurm("9", "1", "1", "4")).is_err(),
            "beyond the count"
        );
        let no_count = env(&[("SLURM_ARRAY_TASK_ID", "2")]);
        assert!(
            parse("auto", &no_count)
                .expect_err("refused")
                .contains("SLURM_ARRAY_TASK_COUNT")
        );
    }

    #[test]
    fn a_kubernetes_indexed_job_needs_its_count() {
        let pod = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert_eq!(parse("auto/8", &pod), Ok((1, 8)));
        assert!(parse("auto", &pod).expect_err("refused").contains("auto/N"));
        let last = env(&[("JOB_COMPLETION_INDEX", "7")]);
        assert_eq!(parse("auto/8", &last), Ok((8, 8)));
        assert!(parse("auto/7", &last).is_err());
        let junk = env(&[("JOB_COMPLETION_INDEX", "seven")]);
        assert!(
            parse("auto/8", &junk)
                .expect_err("refused")
                .contains("not a whole number")
        );
    }

    #[test]
    fn auto_without_a_scheduler_says_what_it_reads() {
        let e = parse("auto", &env(&[])).expect_err("refused");
        assert!(e.contains("SLURM_ARRAY_TASK_ID") && e.contains("JOB_COMPLETION_INDEX"));
    }
}
