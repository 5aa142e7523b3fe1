//! Synthetic catalogs for benchmarks: a seeded, deterministic generator of a realistic
//! EventCatalog catalog (domains, services, events, commands, queries with JSON Schemas,
//! channels, teams, users) and of a history of small commits on top of it, written out as a
//! `git fast-import` stream, and [`repository::write`] turns that stream into a repository.
//! A developer tool, not part of the library: `cargo run --release --example generate`, and
//! the tests that need a generated history include this module by path.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use serde_json::Value;

pub mod repository;
mod schema;
mod words;

/// How big a catalog and how long a history to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub messages: usize,
    pub services: usize,
    pub domains: usize,
    /// Commits after the initial one.
    pub commits: usize,
    pub seed: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            messages: 200,
            services: 40,
            domains: 8,
            commits: 100,
            seed: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("--{name} must be at least 1")]
    Zero { name: &'static str },
    #[error(
        "--services ({services}) must be at least --domains ({domains}): every domain needs a service"
    )]
    TooFewServices { services: usize, domains: usize },
}

/// A commit's author: one of the catalog's users.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub name: String,
    pub email: String,
}

/// One file written by a commit (the generator never deletes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileWrite {
    pub path: String,
    pub contents: String,
}

/// The kinds of change a history commit is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    AddOptionalField,
    AddEnumValue,
    EditMarkdown,
    BumpVersion,
    RemoveField,
    AddRequiredField,
    AddService,
    AddConsumer,
}

impl ChangeKind {
    /// Removing a field and adding a required one break consumers; the rest should not.
    pub fn is_breaking(self) -> bool {
        matches!(self, ChangeKind::RemoveField | ChangeKind::AddRequiredField)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commit {
    pub subject: String,
    /// The change kinds the commit is made of, in subject order (none for the initial import).
    pub kinds: Vec<ChangeKind>,
    pub author: Person,
    /// Seconds since the epoch, UTC.
    pub time: u64,
    pub files: Vec<FileWrite>,
}

/// One change a commit is made of: its kind (the one actually applied), its part of the
/// subject and the files it rewrote (at most 4).
struct Change {
    kind: ChangeKind,
    subject: String,
    files: Vec<FileWrite>,
}

/// The numbers printed after generation, about the catalog at the last commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub files: usize,
    pub messages: usize,
    /// Message resources, older versions included.
    pub versions: usize,
    pub events: usize,
    pub commands: usize,
    pub queries: usize,
    pub services: usize,
    pub domains: usize,
    pub channels: usize,
    pub commits: usize,
    pub schema_bytes: usize,
}

/// A generated catalog history: the initial commit first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    pub commits: Vec<Commit>,
    pub stats: Stats,
}

impl Catalog {
    pub fn generate(params: &Params) -> Result<Catalog, Error> {
        validate(params)?;
        let mut world = World::new(params);
        let initial = world.initial_files();
        let mut commits =
            vec![world.commit(0, "catalog: initial import".to_owned(), Vec::new(), initial)];
        for number in 1..=params.commits {
            commits.push(world.next_commit(number));
        }
        let stats = world.stats(commits.len());
        Ok(Catalog { commits, stats })
    }

    /// The whole history as a `git fast-import` stream for branch `main`, ending in `done`.
    pub fn write_fast_import(&self, out: &mut impl Write) -> io::Result<()> {
        for (number, commit) in self.commits.iter().enumerate() {
            let mark = number + 1;
            writeln!(out, "commit refs/heads/main\nmark :{mark}")?;
            let who = format!(
                "{} <{}> {} +0000",
                commit.author.name, commit.author.email, commit.time
            );
            writeln!(out, "author {who}")?;
            writeln!(out, "committer {COMMITTER} {} +0000", commit.time)?;
            write_data(out, &commit.subject)?;
            if number > 0 {
                writeln!(out, "from :{}", mark - 1)?;
            }
            for file in &commit.files {
                writeln!(out, "M 100644 inline {}", file.path)?;
                write_data(out, &file.contents)?;
            }
            writeln!(out)?;
        }
        writeln!(out, "done")
    }
}

const COMMITTER: &str = "Catalog Bot <catalog-bot@example.com>";
/// Commit i is dated BASE_TIME + i hours, so the same seed gives the same commit ids.
const BASE_TIME: u64 = 1_700_000_000;
/// A commit touches at most this many files.
const MAX_FILES: usize = 5;

fn write_data(out: &mut impl Write, text: &str) -> io::Result<()> {
    writeln!(out, "data {}", text.len())?;
    out.write_all(text.as_bytes())?;
    writeln!(out)
}

fn validate(params: &Params) -> Result<(), Error> {
    for (name, value) in [
        ("messages", params.messages),
        ("services", params.services),
        ("domains", params.domains),
    ] {
        if value == 0 {
            return Err(Error::Zero { name });
        }
    }
    if params.services < params.domains {
        return Err(Error::TooFewServices {
            services: params.services,
            domains: params.domains,
        });
    }
    Ok(())
}

/// splitmix64: tiny, fast and good enough to make varied catalogs; no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// An index into `weights`, chosen in proportion to the weights.
    fn weighted(&mut self, weights: &[usize]) -> usize {
        let mut roll = self.below(weights.iter().sum());
        for (i, w) in weights.iter().enumerate() {
            if roll < *w {
                return i;
            }
            roll -= w;
        }
        weights.len() - 1
    }
}

/// Hands out unique names: the second `OrderPlaced` becomes `OrderPlaced2`.
#[derive(Default)]
struct NameBook(HashSet<String>);

impl NameBook {
    fn unique(&mut self, base: String) -> String {
        if self.0.insert(base.clone()) {
            return base;
        }
        let mut n = 2;
        loop {
            let candidate = format!("{base}{n}");
            if self.0.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MessageKind {
    Event,
    Command,
    Query,
}

impl MessageKind {
    fn folder(self) -> &'static str {
        match self {
            MessageKind::Event => "events",
            MessageKind::Command => "commands",
            MessageKind::Query => "queries",
        }
    }
    fn noun(self) -> &'static str {
        match self {
            MessageKind::Event => "event",
            MessageKind::Command => "command",
            MessageKind::Query => "query",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Version(u32, u32, u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The `version` of a sends/receives pointer: latest 60%, exact 20%, a range 20%.
#[derive(Clone, Debug)]
enum PointerVersion {
    Omitted,
    Latest,
    Exact(Version),
    Caret(u32),
    AtLeast(Version),
}

#[derive(Clone, Debug)]
struct Pointer {
    message: usize,
    version: PointerVersion,
    channel: Option<usize>,
}

/// A team or a user: the owners and authors of the catalog.
struct Member {
    id: String,
    name: String,
}

struct Domain {
    name: String,
    team: usize,
    services: Vec<usize>,
    /// Every other domain has a topic its events may go through.
    channel: Option<usize>,
    body: String,
}

struct Service {
    name: String,
    domain: usize,
    team: usize,
    version: Version,
    sends: Vec<Pointer>,
    receives: Vec<Pointer>,
    body: String,
}

struct Message {
    name: String,
    kind: MessageKind,
    service: usize,
    version: Version,
    older: Vec<Version>,
    /// The current schema, pretty-printed: parsed again only when a commit changes it.
    schema: String,
    /// The older versions' schemas made at creation, written by the initial commit.
    initial_older: Vec<(Version, String)>,
    summary: String,
    body: String,
}

struct Channel {
    id: String,
    name: String,
    address: String,
}

/// The catalog as it stands at the current commit, plus what is needed to change it.
struct World {
    rng: Rng,
    names: NameBook,
    teams: Vec<Member>,
    users: Vec<Member>,
    domains: Vec<Domain>,
    services: Vec<Service>,
    messages: Vec<Message>,
    channels: Vec<Channel>,
    /// Every file of the current tree and its size, for the stats.
    tree: HashMap<String, usize>,
}

impl World {
    fn new(params: &Params) -> World {
        let mut world = World {
            rng: Rng(params.seed),
            names: NameBook::default(),
            teams: Vec::new(),
            users: Vec::new(),
            domains: Vec::new(),
            services: Vec::new(),
            messages: Vec::new(),
            channels: Vec::new(),
            tree: HashMap::new(),
        };
        world.people(params.domains);
        for _ in 0..params.domains {
            world.new_domain();
        }
        for i in 0..params.services {
            // The first N services give every domain one; the rest land anywhere.
            let domain = if i < params.domains {
                i
            } else {
                world.rng.below(params.domains)
            };
            world.new_service(domain);
        }
        for i in 0..params.messages {
            let service = if i < params.services {
                i
            } else {
                world.rng.below(params.services)
            };
            world.new_message(service);
        }
        for message in 0..world.messages.len() {
            world.new_consumers(message);
        }
        world
    }

    fn people(&mut self, domains: usize) {
        let teams = domains.div_ceil(2).max(2);
        for _ in 0..teams {
            let base = format!(
                "{} {}",
                self.rng.pick(words::DOMAINS),
                self.rng.pick(words::TEAM_SUFFIXES)
            );
            let name = self.names.unique(base);
            self.teams.push(Member {
                id: kebab(&name),
                name,
            });
        }
        for _ in 0..teams * 3 {
            let base = format!(
                "{} {}",
                self.rng.pick(words::FIRST_NAMES),
                self.rng.pick(words::LAST_NAMES)
            );
            let name = self.names.unique(base);
            self.users.push(Member {
                id: kebab(&name),
                name,
            });
        }
    }

    fn new_domain(&mut self) {
        let base = (*self.rng.pick(words::DOMAINS)).to_owned();
        let name = self.names.unique(base);
        let team = self.rng.below(self.teams.len());
        let body = self.prose(&name, "domain");
        let channel = self.domains.len().is_multiple_of(2).then(|| {
            let address = format!("{}.events", kebab(&name));
            self.channels.push(Channel {
                id: address.clone(),
                name: format!("{name} events"),
                address,
            });
            self.channels.len() - 1
        });
        self.domains.push(Domain {
            name,
            team,
            services: Vec::new(),
            channel,
            body,
        });
    }

    fn new_service(&mut self, domain: usize) -> usize {
        let base = format!(
            "{}{}Service",
            self.rng.pick(words::ENTITIES),
            self.rng.pick(words::ROLES)
        );
        let name = self.names.unique(base);
        let body = self.prose(&name, "service");
        let team = if self.rng.percent(80) {
            self.domains[domain].team
        } else {
            self.rng.below(self.teams.len())
        };
        let index = self.services.len();
        self.services.push(Service {
            name,
            domain,
            team,
            version: Version(self.rng.below(3) as u32, self.rng.below(10) as u32, 0),
            sends: Vec::new(),
            receives: Vec::new(),
            body,
        });
        self.domains[domain].services.push(index);
        index
    }

    fn new_message(&mut self, service: usize) {
        let kind = match self.rng.weighted(&[60, 25, 15]) {
            0 => MessageKind::Event,
            1 => MessageKind::Command,
            _ => MessageKind::Query,
        };
        let entity = *self.rng.pick(words::ENTITIES);
        let base = match kind {
            MessageKind::Event => format!("{entity}{}", self.rng.pick(words::PAST_VERBS)),
            MessageKind::Command => format!("{}{entity}", self.rng.pick(words::VERBS)),
            MessageKind::Query => {
                let (verb, tail) = *self.rng.pick(words::QUERY_SHAPES);
                // `List` and `Search` take the plural: `ListAddresses`, not `ListAddresss`.
                let tail = if tail == "s" && entity.ends_with('s') {
                    "es"
                } else {
                    tail
                };
                format!("{verb}{entity}{tail}")
            }
        };
        let name = self.names.unique(base);
        let summary = format!(
            "{} {}, sent by {}, delivered {}.",
            capitalize(kind.noun()),
            humanize(&name).to_lowercase(),
            self.services[service].name,
            self.rng.pick(words::ADJECTIVES)
        );
        let body = self.prose(&name, kind.noun());
        let mut schema = schema::document(&mut self.rng, &name);
        let mut version = Version(1, 0, 0);
        let mut initial_older = Vec::new();
        // Older versions come from the same evolution a release in the history makes.
        for _ in 1..self.rng.between(1, 3) {
            initial_older.push((version, schema::to_text(&schema)));
            version = schema::evolve(&mut self.rng, &mut schema, version);
        }
        let index = self.messages.len();
        self.messages.push(Message {
            name,
            kind,
            service,
            version,
            older: initial_older.iter().map(|(v, _)| *v).collect(),
            schema: schema::to_text(&schema),
            initial_older,
            summary,
            body,
        });
        let channel = self.channel_for(service, kind);
        let version = self.pointer_version(index);
        self.services[service].sends.push(Pointer {
            message: index,
            version,
            channel,
        });
    }

    /// Events of a domain with a channel go through it, three times in ten.
    fn channel_for(&mut self, service: usize, kind: MessageKind) -> Option<usize> {
        let channel = self.domains[self.services[service].domain].channel;
        channel.filter(|_| kind == MessageKind::Event && self.rng.percent(30))
    }

    fn pointer_version(&mut self, message: usize) -> PointerVersion {
        let m = &self.messages[message];
        let current = m.version;
        let all: Vec<Version> = m.older.iter().copied().chain([current]).collect();
        match self.rng.weighted(&[30, 30, 20, 10, 10]) {
            0 => PointerVersion::Omitted,
            1 => PointerVersion::Latest,
            2 => PointerVersion::Exact(*self.rng.pick(&all)),
            3 => PointerVersion::Caret(current.0),
            _ => PointerVersion::AtLeast(Version(1, 0, 0)),
        }
    }

    /// 1-5 other services receive each message; one in thirty is popular and has up to 12.
    fn new_consumers(&mut self, message: usize) {
        let wanted = if self.rng.percent(3) {
            self.rng.between(6, 12)
        } else {
            [1, 1, 1, 2, 2, 3, 4, 5][self.rng.below(8)]
        };
        for _ in 0..wanted {
            self.add_consumer(message);
        }
    }

    /// Adds one receiving service for `message`; None when a few random picks find no
    /// service that does not already receive it.
    fn add_consumer(&mut self, message: usize) -> Option<usize> {
        // A few tries are enough; a full scan would be O(S) per edge.
        (0..8).find_map(|_| {
            let consumer = self.rng.below(self.services.len());
            self.receive(consumer, message).then_some(consumer)
        })
    }

    /// Makes `consumer` receive `message` (through the producer's channel, six times in ten
    /// when it has one); false when it is the producer or already receives it.
    fn receive(&mut self, consumer: usize, message: usize) -> bool {
        let producer = self.messages[message].service;
        let taken = self.services[consumer]
            .receives
            .iter()
            .any(|p| p.message == message);
        if consumer == producer || taken {
            return false;
        }
        let version = self.pointer_version(message);
        let channel = self.services[producer]
            .sends
            .iter()
            .find(|p| p.message == message)
            .and_then(|p| p.channel)
            .filter(|_| self.rng.percent(60));
        self.services[consumer].receives.push(Pointer {
            message,
            version,
            channel,
        });
        true
    }

    fn prose(&mut self, name: &str, what: &str) -> String {
        let concern = self.rng.pick(words::CONCERNS);
        let other = self.rng.pick(words::CONCERNS);
        let how = self.rng.pick(words::ADJECTIVES);
        format!(
            "## Overview\n\nThis {what}, {}, is part of the catalog used for {concern}. It is maintained by its owners and changes {how}.\n\nTeams that depend on it for {other} should read the schema before upgrading.\n",
            humanize(name)
        )
    }

    // ---- rendering: one function per file kind, so a change re-renders only its files

    fn domain_path(&self, domain: usize) -> String {
        format!("domains/{}", self.domains[domain].name)
    }
    fn service_path(&self, service: usize) -> String {
        let s = &self.services[service];
        format!("{}/services/{}", self.domain_path(s.domain), s.name)
    }
    fn message_path(&self, message: usize) -> String {
        let m = &self.messages[message];
        format!(
            "{}/{}/{}",
            self.service_path(m.service),
            m.kind.folder(),
            m.name
        )
    }

    fn domain_file(&self, domain: usize) -> FileWrite {
        let d = &self.domains[domain];
        let mut text = front(&d.name, &humanize(&d.name), Version(1, 0, 0));
        text += &format!("summary: 'The {} domain.'\n", humanize(&d.name));
        text += &owners(&self.teams[d.team].id);
        text += "services:\n";
        for &s in &d.services {
            text += &format!("  - id: {}\n", self.services[s].name);
        }
        FileWrite {
            path: format!("{}/index.mdx", self.domain_path(domain)),
            contents: format!("{text}---\n\n{}", d.body),
        }
    }

    fn service_file(&self, service: usize) -> FileWrite {
        let s = &self.services[service];
        let mut text = front(&s.name, &humanize(&s.name), s.version);
        text += &format!(
            "summary: 'Runs part of the {} domain.'\n",
            humanize(&self.domains[s.domain].name)
        );
        text += &owners(&self.teams[s.team].id);
        for (key, nested, pointers) in
            [("sends", "to", &s.sends), ("receives", "from", &s.receives)]
        {
            if pointers.is_empty() {
                continue;
            }
            text += &format!("{key}:\n");
            for p in pointers {
                text += &self.pointer_yaml(p, nested);
            }
        }
        FileWrite {
            path: format!("{}/index.mdx", self.service_path(service)),
            contents: format!("{text}---\n\n{}", s.body),
        }
    }

    fn pointer_yaml(&self, p: &Pointer, nested: &str) -> String {
        let mut text = format!("  - id: {}\n", self.messages[p.message].name);
        match &p.version {
            PointerVersion::Omitted => {}
            PointerVersion::Latest => text += "    version: latest\n",
            PointerVersion::Exact(v) => text += &format!("    version: {v}\n"),
            PointerVersion::Caret(major) => text += &format!("    version: ^{major}.0.0\n"),
            // Quoted: a plain scalar starting with `>` would be a folded block.
            PointerVersion::AtLeast(v) => text += &format!("    version: '>={v}'\n"),
        }
        if let Some(c) = p.channel {
            text += &format!(
                "    {nested}:\n      - id: {}\n        version: 1.0.0\n",
                self.channels[c].id
            );
        }
        text
    }

    /// A message's `index.mdx` at `version`, in `dir` (its folder, or one under versioned/).
    fn message_index(&self, message: usize, version: Version, dir: &str) -> FileWrite {
        let m = &self.messages[message];
        let mut text = front(&m.name, &humanize(&m.name), version);
        text += &format!("summary: '{}'\n", m.summary);
        text += &owners(&self.teams[self.services[m.service].team].id);
        text += "schemaPath: 'schema.json'\n";
        FileWrite {
            path: format!("{dir}/index.mdx"),
            contents: format!("{text}---\n\n{}", m.body),
        }
    }

    fn message_schema(&self, message: usize, dir: &str) -> FileWrite {
        FileWrite {
            path: format!("{dir}/schema.json"),
            contents: self.messages[message].schema.clone(),
        }
    }

    /// The current version's two files.
    fn message_current(&self, message: usize) -> [FileWrite; 2] {
        let dir = self.message_path(message);
        [
            self.message_index(message, self.messages[message].version, &dir),
            self.message_schema(message, &dir),
        ]
    }

    /// Parses the current schema, lets `edit` change it and keeps the new text.
    fn edit_schema<T>(
        &mut self,
        message: usize,
        edit: impl FnOnce(&mut Rng, &mut Value) -> T,
    ) -> T {
        let m = &mut self.messages[message];
        let mut schema: Value =
            serde_json::from_str(&m.schema).expect("the generator wrote this schema");
        let outcome = edit(&mut self.rng, &mut schema);
        m.schema = schema::to_text(&schema);
        outcome
    }

    fn channel_file(&self, channel: usize) -> FileWrite {
        let c = &self.channels[channel];
        let mut text = front(&c.id, &c.name, Version(1, 0, 0));
        text += &format!(
            "summary: 'The topic {} publishes on.'\naddress: {}\nprotocols:\n  - kafka\n",
            c.name, c.address
        );
        FileWrite {
            path: format!("channels/{}/index.mdx", c.id),
            contents: format!("{text}---\n\nOne topic per domain keeps ordering per key.\n"),
        }
    }

    fn initial_files(&mut self) -> Vec<FileWrite> {
        let mut files = Vec::new();
        for (team, t) in self.teams.iter().enumerate() {
            // Users were made three per team, in team order.
            let members: String = self.users[team * 3..team * 3 + 3]
                .iter()
                .map(|u| format!("  - {}\n", u.id))
                .collect();
            files.push(FileWrite {
                path: format!("teams/{}.mdx", t.id),
                contents: format!(
                    "---\nid: {}\nname: {}\nmembers:\n{members}---\n\nThe {} team owns the resources that name it.\n",
                    t.id, t.name, t.name
                ),
            });
        }
        for u in &self.users {
            files.push(FileWrite {
                path: format!("users/{}.mdx", u.id),
                contents: format!(
                    "---\nid: {}\nname: {}\n---\n\n{} keeps part of the catalog up to date.\n",
                    u.id, u.name, u.name
                ),
            });
        }
        files.extend((0..self.channels.len()).map(|c| self.channel_file(c)));
        files.extend((0..self.domains.len()).map(|d| self.domain_file(d)));
        files.extend((0..self.services.len()).map(|s| self.service_file(s)));
        for m in 0..self.messages.len() {
            files.extend(self.message_files(m));
        }
        files
    }

    /// Every file of one message: each older version under versioned/, then the current one.
    fn message_files(&mut self, message: usize) -> Vec<FileWrite> {
        let dir = self.message_path(message);
        let older = std::mem::take(&mut self.messages[message].initial_older);
        let mut files = Vec::new();
        for (version, schema) in older {
            let versioned = format!("{dir}/versioned/{version}");
            files.push(self.message_index(message, version, &versioned));
            files.push(FileWrite {
                path: format!("{versioned}/schema.json"),
                contents: schema,
            });
        }
        files.extend(self.message_current(message));
        files
    }

    // ---- the history

    fn commit(
        &mut self,
        number: usize,
        subject: String,
        kinds: Vec<ChangeKind>,
        files: Vec<FileWrite>,
    ) -> Commit {
        for f in &files {
            self.tree.insert(f.path.clone(), f.contents.len());
        }
        let user = &self.users[self.rng.below(self.users.len())];
        Commit {
            subject,
            kinds,
            author: Person {
                name: user.name.clone(),
                email: format!("{}@example.com", user.id),
            },
            time: BASE_TIME + 3600 * number as u64,
            files,
        }
    }

    fn next_commit(&mut self, number: usize) -> Commit {
        let mut files: Vec<FileWrite> = Vec::new();
        let mut subjects = Vec::new();
        let mut kinds = Vec::new();
        let mut change = self.pick_kind();
        loop {
            let made = self.apply(change);
            for f in made.files {
                match files.iter_mut().find(|g| g.path == f.path) {
                    Some(existing) => *existing = f,
                    None => files.push(f),
                }
            }
            subjects.push(made.subject);
            kinds.push(made.kind);
            // Teams often fold a small doc or wiring fix into the same commit.
            if files.len() >= MAX_FILES || !self.rng.percent(25) {
                break;
            }
            change = if self.rng.percent(60) {
                ChangeKind::EditMarkdown
            } else {
                ChangeKind::AddConsumer
            };
        }
        self.commit(number, subjects.join("; "), kinds, files)
    }

    fn pick_kind(&mut self) -> ChangeKind {
        const KINDS: &[(ChangeKind, usize)] = &[
            (ChangeKind::AddOptionalField, 30),
            (ChangeKind::AddEnumValue, 10),
            (ChangeKind::EditMarkdown, 25),
            (ChangeKind::BumpVersion, 10),
            (ChangeKind::RemoveField, 5),
            (ChangeKind::AddRequiredField, 4),
            (ChangeKind::AddService, 4),
            (ChangeKind::AddConsumer, 12),
        ];
        let weights: Vec<usize> = KINDS.iter().map(|(_, w)| *w).collect();
        KINDS[self.rng.weighted(&weights)].0
    }

    /// Makes one change of `kind`, or of a fallback kind when the catalog has nothing to
    /// apply it to (no enum to extend, no required field to remove, no consumer left).
    fn apply(&mut self, kind: ChangeKind) -> Change {
        let message = self.rng.below(self.messages.len());
        let who = self.scope(message);
        let name = self.messages[message].name.clone();
        let made = |(subject, files)| Change {
            kind,
            subject,
            files,
        };
        match kind {
            ChangeKind::AddOptionalField | ChangeKind::AddRequiredField => {
                let required = kind == ChangeKind::AddRequiredField;
                let field = self.edit_schema(message, |rng, s| schema::add_field(rng, s, required));
                let what = if required { "required" } else { "optional" };
                let subject = format!("{who}: add {what} field {field} to {name}");
                made(self.schema_written(message, subject))
            }
            ChangeKind::AddEnumValue => match self.edit_schema(message, schema::add_enum_value) {
                Some((field, value)) => {
                    let subject = format!("{who}: allow {value} in {name}.{field}");
                    made(self.schema_written(message, subject))
                }
                None => self.apply(ChangeKind::AddOptionalField),
            },
            ChangeKind::RemoveField => match self.edit_schema(message, schema::remove_field) {
                Some(field) => {
                    let subject = format!("{who}: remove field {field} from {name}");
                    made(self.schema_written(message, subject))
                }
                None => self.apply(ChangeKind::AddRequiredField),
            },
            ChangeKind::EditMarkdown => made(self.edit_markdown(message)),
            ChangeKind::BumpVersion => made(self.bump_version(message)),
            ChangeKind::AddService => made(self.add_service()),
            ChangeKind::AddConsumer => match self.add_consumer(message) {
                Some(consumer) => made((
                    format!(
                        "{}: {} now consumes {name}",
                        self.scope_of_service(consumer),
                        self.services[consumer].name
                    ),
                    vec![self.service_file(consumer)],
                )),
                None => self.apply(ChangeKind::EditMarkdown),
            },
        }
    }

    /// A schema edit's subject and its one file.
    fn schema_written(&self, message: usize, subject: String) -> (String, Vec<FileWrite>) {
        let dir = self.message_path(message);
        (subject, vec![self.message_schema(message, &dir)])
    }

    /// The subject prefix: the producing service's domain, lower-case.
    fn scope(&self, message: usize) -> String {
        self.scope_of_service(self.messages[message].service)
    }
    fn scope_of_service(&self, service: usize) -> String {
        self.domains[self.services[service].domain]
            .name
            .to_lowercase()
    }

    fn edit_markdown(&mut self, message: usize) -> (String, Vec<FileWrite>) {
        let concern = self.rng.pick(words::CONCERNS);
        let line = format!(
            "\nSee the runbook for {concern} before replaying old {}.\n",
            humanize(&self.messages[message].name)
        );
        match self.rng.below(3) {
            0 => {
                let service = self.messages[message].service;
                self.services[service].body += &line;
                (
                    format!(
                        "{}: document {}",
                        self.scope_of_service(service),
                        self.services[service].name
                    ),
                    vec![self.service_file(service)],
                )
            }
            _ => {
                self.messages[message].body += &line;
                let [index, _] = self.message_current(message);
                (
                    format!(
                        "{}: clarify the docs of {}",
                        self.scope(message),
                        self.messages[message].name
                    ),
                    vec![index],
                )
            }
        }
    }

    /// Moves the current version under versioned/ and writes the next one with a changed schema.
    fn bump_version(&mut self, message: usize) -> (String, Vec<FileWrite>) {
        let dir = self.message_path(message);
        let old = self.messages[message].version;
        let versioned = format!("{dir}/versioned/{old}");
        let mut files = vec![
            self.message_index(message, old, &versioned),
            self.message_schema(message, &versioned),
        ];
        let new = self.edit_schema(message, |rng, s| schema::evolve(rng, s, old));
        let m = &mut self.messages[message];
        m.older.push(old);
        m.version = new;
        files.extend(self.message_current(message));
        (
            format!(
                "{}: release {} {new}",
                self.scope(message),
                self.messages[message].name
            ),
            files,
        )
    }

    fn add_service(&mut self) -> (String, Vec<FileWrite>) {
        let domain = self.rng.below(self.domains.len());
        let service = self.new_service(domain);
        for _ in 0..self.rng.between(1, 3) {
            let message = self.rng.below(self.messages.len());
            self.receive(service, message);
        }
        (
            format!(
                "{}: add {}",
                self.scope_of_service(service),
                self.services[service].name
            ),
            vec![self.service_file(service), self.domain_file(domain)],
        )
    }

    fn stats(&self, commits: usize) -> Stats {
        let count = |kind| self.messages.iter().filter(|m| m.kind == kind).count();
        Stats {
            files: self.tree.len(),
            messages: self.messages.len(),
            versions: self.messages.iter().map(|m| m.older.len() + 1).sum(),
            events: count(MessageKind::Event),
            commands: count(MessageKind::Command),
            queries: count(MessageKind::Query),
            services: self.services.len(),
            domains: self.domains.len(),
            channels: self.channels.len(),
            commits,
            schema_bytes: self
                .tree
                .iter()
                .filter(|(path, _)| path.ends_with("/schema.json"))
                .map(|(_, size)| size)
                .sum(),
        }
    }
}

/// The front matter's first lines: `---`, id, name, version.
fn front(id: &str, name: &str, version: Version) -> String {
    format!("---\nid: {id}\nname: {name}\nversion: {version}\n")
}

fn owners(team: &str) -> String {
    format!("owners:\n  - {team}\n")
}

/// `OrderPlaced` -> `Order placed`.
fn humanize(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `Orders Platform` -> `orders-platform`.
fn kebab(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}
