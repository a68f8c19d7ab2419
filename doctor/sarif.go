package doctor

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// RulesURL is where the rules are documented (docs/doctor.md's table); each
// rule's SARIF helpUri points there.
const RulesURL = "https://github.com/hookx-dev/hookx/blob/main/docs/doctor.md#doctor-rules"

// SARIFSchema is the URI of the SARIF 2.1.0 schema the output declares.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	HelpURI              string            `json:"helpUri"`
	DefaultConfiguration sarifConfig       `json:"defaultConfiguration"`
	Properties           map[string]string `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID       string             `json:"ruleId"`
	RuleIndex    int                `json:"ruleIndex"`
	Level        string             `json:"level"`
	Message      sarifText          `json:"message"`
	Locations    []sarifLocation    `json:"locations,omitempty"`
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

// The uriBaseIds of the locations: the project (code scanning's source
// root) and the user's home (its absolute path is never written).
const (
	sarifProject = "%SRCROOT%"
	sarifHome    = "HOME"
)

// WriteSARIF writes findings as a SARIF 2.1.0 log, for GitHub code scanning
// and other SARIF viewers: one run of the tool "hookx" (version, "" when
// unknown) with every rule of the registry, and one result per finding.
// Locations are relative to the project directory dir (uriBaseId
// %SRCROOT%) or, for user settings, to the home directory (HOME). A
// silenced finding is a result with a suppression (inSource for a
// hookx-ignore comment, external for --ignore), which viewers hide but keep.
func WriteSARIF(w io.Writer, fs []Finding, dir, version string) error {
	rules := Rules()
	index := map[string]int{}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "hookx", Version: version, InformationURI: "https://github.com/hookx-dev/hookx"}}, Results: []sarifResult{}}
	for i, r := range rules {
		index[r.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: r.ID, Name: r.Name, ShortDescription: sarifText{r.Summary},
			HelpURI:              RulesURL,
			DefaultConfiguration: sarifConfig{Level: string(r.Severity)},
			Properties:           map[string]string{"consequence": r.Consequence},
		})
	}
	if abs, err := filepath.Abs(dir); err == nil {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{sarifProject: {URI: u.String()}}
	}
	for _, f := range fs {
		msg := f.Problem
		if f.Fix != "" {
			msg += "; " + f.Fix
		}
		res := sarifResult{RuleID: f.RuleID, RuleIndex: index[f.RuleID], Level: string(f.Severity), Message: sarifText{msg}}
		if loc, ok := sarifArtifact(f.File, dir); ok {
			l := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: loc}}
			if f.Line > 0 {
				l.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
			res.Locations = []sarifLocation{l}
		}
		if f.Silenced != "" {
			kind := "inSource"
			if strings.HasPrefix(f.Silenced, "--ignore") {
				kind = "external"
			}
			res.Suppressions = []sarifSuppression{{Kind: kind, Justification: f.Silenced}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifArtifact is a finding's file as a URI reference relative to its
// base: the project, or the home directory for "~/" files.
func sarifArtifact(file, dir string) (sarifArtifactLoc, bool) {
	if file == "" {
		return sarifArtifactLoc{}, false
	}
	if rest, ok := strings.CutPrefix(file, "~/"); ok {
		return sarifArtifactLoc{URI: uriPath(rest), URIBaseID: sarifHome}, true
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return sarifArtifactLoc{URI: uriPath(filepath.ToSlash(file))}, true
	}
	return sarifArtifactLoc{URI: uriPath(filepath.ToSlash(rel)), URIBaseID: sarifProject}, true
}

// uriPath escapes a slash-separated relative path as a URI reference (a
// directory named "a b" or "50%" stays one path).
func uriPath(p string) string {
	e := (&url.URL{Path: p}).EscapedPath()
	if first, _, _ := strings.Cut(e, "/"); strings.Contains(first, ":") {
		e = "./" + e // not a scheme
	}
	return e
}
