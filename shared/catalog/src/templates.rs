//! Templates: the shipped skills a slag is bootstrapped from on first use
//! (only the default slag may start without one), and their listing.

use super::*;

impl Catalog {
    /// Creates `<root>/<slag>/` from a template: `template` if given, else the
    /// template named like the slag, else — for the default slag only — the
    /// minimal skill. An existing operational skill is returned unchanged.
    pub fn bootstrap(
        &self,
        slag: &str,
        template: Option<&str>,
    ) -> Result<Arc<OperationalSkill>, SkillError> {
        let dir = self.slag_dir(slag)?;
        let file = dir.join(SKILL_FILE);
        if let Some(shared) = &self.shared {
            if self.stored(shared, slag)?.is_some() {
                return self.get_shared(shared, slag);
            }
        } else if file.exists() {
            return self.read(slag, &file);
        }
        let template_slag = template.unwrap_or(slag);
        if !is_valid_slag(template_slag) {
            return Err(SkillError::UnsafeSlag(
                template_slag.chars().take(80).collect(),
            ));
        }
        let template_file = self.templates_dir.join(format!("{template_slag}.yaml"));
        let (source, template_name) = match std::fs::read_to_string(&template_file) {
            Ok(source) => (source, Some(template_slag.to_owned())),
            Err(_) if template.is_some() => {
                return Err(SkillError::UnknownTemplate(template_slag.to_owned()));
            }
            Err(_) if slag == DEFAULT_SLAG => (MINIMAL_SKILL.to_owned(), None),
            Err(_) => {
                return Err(SkillError::UnknownSkill {
                    slag: slag.to_owned(),
                    known: self.list()?,
                    templates: self.template_slags()?,
                });
            }
        };
        let source = self.expand_or_refuse(slag, &source)?;
        let skill = self.build_skill(slag, &source, template_name.clone())?;
        if let Some(shared) = &self.shared {
            // Replicas bootstrapping at once: the first write wins, the others
            // serve what it wrote.
            if !self.store_skill(shared, &skill, DocExpect::Absent)? {
                return self.get_shared(shared, slag);
            }
            info!(
                slag,
                template = template_name.as_deref().unwrap_or("minimal default"),
                "bootstrapped operational skill in the store"
            );
            return Ok(self.install(slag, skill));
        }
        for sub in SLAG_DIRS {
            let path = dir.join(sub);
            std::fs::create_dir_all(&path).map_err(|source| SkillError::io(&path, source))?;
        }
        write_atomically(&file, &source)?;
        if let Some(template_name) = &template_name {
            let marker = dir.join(".template");
            write_atomically(&marker, template_name)?;
        }
        info!(
            slag,
            template = template_name.as_deref().unwrap_or("minimal default"),
            "bootstrapped operational skill"
        );
        self.read(slag, &file)
    }

    pub(super) fn template_marker(&self, slag: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(slag).join(".template"))
            .ok()
            .map(|text| text.trim().to_owned())
    }

    /// Slugs of the templates directory's `<slag>.yaml` files, sorted.
    pub(super) fn template_slags(&self) -> Result<Vec<String>, SkillError> {
        let entries = match std::fs::read_dir(&self.templates_dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(SkillError::io(&self.templates_dir, source)),
        };
        let mut slags: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let slag = name.strip_suffix(".yaml")?;
                is_valid_slag(slag).then(|| slag.to_owned())
            })
            .collect();
        slags.sort();
        Ok(slags)
    }

    /// Templates in the templates directory, sorted by slag.
    pub fn templates(&self) -> Result<Vec<TemplateInfo>, SkillError> {
        let mut templates = Vec::new();
        for slag in self.template_slags()? {
            let Ok(source) =
                std::fs::read_to_string(self.templates_dir.join(format!("{slag}.yaml")))
            else {
                continue;
            };
            let skill = self.load(&source, Format::Yaml).skill.unwrap_or_default();
            templates.push(TemplateInfo {
                display_name: skill.name.clone().unwrap_or_else(|| slag.clone()),
                description: skill
                    .problem
                    .as_ref()
                    .and_then(|problem| problem.statement.clone())
                    .or(skill.description.clone())
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
                slag,
            });
        }
        Ok(templates)
    }
}
