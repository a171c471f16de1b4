//! Templates: the shipped skills a slag is bootstrapped from on first use
//! (only the default slag may start without one), and their listing.

use super::*;

/// The shipped templates, built into the binary (sorted by slag; a test
/// keeps the list equal to `skill-templates/`).
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "cs-tier-1",
        include_str!("../../../skill-templates/cs-tier-1.yaml"),
    ),
    (
        "devops-tier-1",
        include_str!("../../../skill-templates/devops-tier-1.yaml"),
    ),
    (
        "identity-verification",
        include_str!("../../../skill-templates/identity-verification.yaml"),
    ),
    (
        "sw-dev-agent",
        include_str!("../../../skill-templates/sw-dev-agent.yaml"),
    ),
];

impl Catalog {
    /// A catalog for a service: the built-in templates, or a templates dir
    /// that must exist and hold a template — so a misconfigured service
    /// fails at start instead of refusing every skill later.
    pub fn open(
        memory_root: impl Into<PathBuf>,
        templates_dir: Option<&std::path::Path>,
    ) -> Result<Self, SkillError> {
        let Some(dir) = templates_dir else {
            return Ok(Self::embedded(memory_root));
        };
        let catalog = Self::new(memory_root, dir);
        let problem = match std::fs::metadata(dir) {
            Err(error) => Some(format!("cannot be read ({error})")),
            Ok(metadata) if !metadata.is_dir() => Some("is not a directory".to_owned()),
            Ok(_) if catalog.template_slags()?.is_empty() => {
                Some("holds no template (`<slag>.yaml`)".to_owned())
            }
            Ok(_) => None,
        };
        match problem {
            Some(reason) => Err(SkillError::Templates {
                path: dir.display().to_string(),
                reason: format!("{reason}; set --templates-dir / ADAS_TEMPLATES_DIR"),
            }),
            None => Ok(catalog),
        }
    }

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
        let (source, template_name) = match self.template_source(template_slag) {
            Some(source) => (source, Some(template_slag.to_owned())),
            None if template.is_some() => {
                return Err(SkillError::UnknownTemplate(template_slag.to_owned()));
            }
            None if slag == DEFAULT_SLAG => (MINIMAL_SKILL.to_owned(), None),
            None => {
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

    /// A template's text: the directory's `<slag>.yaml`, or the built-in one.
    fn template_source(&self, slag: &str) -> Option<String> {
        match &self.templates_dir {
            Some(dir) => std::fs::read_to_string(dir.join(format!("{slag}.yaml"))).ok(),
            None => EMBEDDED
                .iter()
                .find(|(name, _)| *name == slag)
                .map(|(_, source)| (*source).to_owned()),
        }
    }

    /// Slugs of the templates (the directory's `<slag>.yaml` files, or the
    /// built-in ones), sorted.
    pub fn template_slags(&self) -> Result<Vec<String>, SkillError> {
        let Some(dir) = &self.templates_dir else {
            return Ok(EMBEDDED
                .iter()
                .map(|(name, _)| (*name).to_owned())
                .collect());
        };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(SkillError::io(dir, source)),
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
            let Some(source) = self.template_source(&slag) else {
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
