//! A job's first and last phases as the driver performs them: the first plan
//! and each next step (RV2, a replan), and the end (the draft judged, a replan
//! when it fails, the reply polished).

use super::*;

impl Worker {
    /// The plan ran out: RV2 asks the model what comes next after each
    /// result; else the job is finalized.
    pub(super) async fn done(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        mut version: u64,
    ) -> Result<Stepped, WorkError> {
        if skill.engine.rv2 {
            // The planner may be a model across the network: what is held
            // is written before it is asked.
            version = self
                .repo
                .flush(version, &mut record, Transition::run(Vec::new()))
                .await?;
            if let Some(next) = self.extend(skill, &mut record, version, None).await? {
                return Ok(Some((record, next)));
            }
        }
        self.finalize(skill, record, version).await
    }

    /// Plans once; `None` when the job ended (out of domain) or paused to
    /// clarify. The pickup held on the record is written with the outcome.
    pub(super) async fn plan(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &mut JobRecord,
        version: u64,
    ) -> Result<Option<u64>, WorkError> {
        let ask = PlanAsk {
            // The user's answer to a clarification.
            intent_id: adas_step::plan::intent_to_plan(record),
            ..PlanAsk::default()
        };
        let planned = self.engine.plan(skill, record, ask).await?;
        match adas_step::plan::first(skill, record, planned) {
            Planning::Stop(transition) => {
                self.repo.save(version, record, transition).await?;
                Ok(None)
            }
            Planning::Go { planned, by_model } => {
                if self.engine.in_process() && !by_model {
                    // A plan made here without a model is made again the same
                    // if the job is retried: it rides with the first step's
                    // write (the call's start or a pause). A model's plan is
                    // written now, with the tokens it cost.
                    record.hold(planned);
                    return Ok(Some(version));
                }
                let written = self
                    .repo
                    .save(version, record, Transition::run(vec![planned]))
                    .await?;
                Ok(Some(written))
            }
        }
    }

    /// Asks the planner what comes next after the calls made (`engine.loop:
    /// rv2`, or a replan with `feedback` after a failed finalization) and
    /// appends it to the plan. `None`: nothing more — the planner is done, the
    /// model-step budget is spent, or every proposed call was already made.
    pub(super) async fn extend(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &mut JobRecord,
        version: u64,
        feedback: Option<String>,
    ) -> Result<Option<u64>, WorkError> {
        if !adas_step::plan::may_extend(skill, record) {
            return Ok(None);
        }
        let ask = PlanAsk {
            intent_id: record
                .intent
                .as_ref()
                .map(|intent| intent.intent_id.clone()),
            next_only: true,
            feedback: feedback.clone(),
        };
        let planned = self.engine.plan(skill, record, ask).await?;
        let Some(planned) = adas_step::plan::next_step(skill, record, planned, feedback) else {
            info!(job_id = %record.job_id, "no next step brings anything new; stopping");
            return Ok(None);
        };
        let written = self
            .repo
            .save(version, record, Transition::run(vec![planned]))
            .await?;
        Ok(Some(written))
    }

    /// Finalizes; `Some` when a failed finalization bought a replan with new
    /// calls (the loop goes on), `None` when the job completed or was escalated.
    pub(super) async fn finalize(
        &self,
        skill: &Arc<OperationalSkill>,
        mut record: JobRecord,
        mut version: u64,
    ) -> Result<Stepped, WorkError> {
        let outputs = async {
            let mut outputs = Vec::new();
            for call in record.calls.iter().filter(|call| !call.is_error) {
                let output = self.full_output(&record.slag, &call.output).await?;
                outputs.push((call.tool.clone(), output));
            }
            Ok::<_, WorkError>(outputs)
        }
        .await;
        let outputs = self.keep_held(&mut record, version, outputs).await?;
        let drafted = finish::draft(skill, &record, outputs);
        let judged = self
            .engine
            .finalize(skill, &record, drafted.ask.clone())
            .await?;
        record.llm.add(&judged.decider.usage);
        if let Some(feedback) = finish::replan(skill, &mut record, &judged) {
            // The planner may be a model across the network: what is held is
            // written before it is asked.
            version = self
                .repo
                .flush(version, &mut record, Transition::run(Vec::new()))
                .await?;
            if let Some(next) = self
                .extend(skill, &mut record, version, Some(feedback))
                .await?
            {
                return Ok(Some((record, next)));
            }
        }
        let asked = finish::polish_ask(skill, &record, &drafted);
        let polished = self
            .engine
            .polish_reply(skill, &record, asked.clone())
            .await?;
        record.llm.add(&polished.decider.usage);
        let end = finish::end(&mut record, &judged, polished, asked);
        self.repo.save(version, &mut record, end).await?;
        Ok(None)
    }
}
