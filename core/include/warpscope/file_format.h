// Pattern and session files: versioned JSON (format "warpscope-pattern" / "warpscope-session").
// Readers never trust their input: size limits, depth limits, every field checked, and every
// error names the place in the file (a JSON pointer such as /patterns/2/width). See
// docs/file-formats.md.
#pragma once

#include "warpscope/kernel.h"
#include "warpscope/pattern.h"
#include "warpscope/result.h"
#include "warpscope/tma_layout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope {

/// Version 2 adds kernels (a "kernel" object in a pattern or session entry); files without one
/// are still written as version 1, and version-1 files open unchanged.
inline constexpr int kPatternFormatVersion = 2;
inline constexpr int kSessionFormatVersion = 2;
inline constexpr int kDeckFormatVersion = 1;
/// Files larger than this are refused before parsing, unless WARPSCOPE_MAX_FILE_MIB raises the
/// cap (maxFileBytes(), file_open.h).
inline constexpr std::size_t kMaxFileBytes = 16u * 1024u * 1024u;

/// A pattern with the words a user put on it, and the kernel it is one access of, if any.
struct NamedPattern {
    NamedPattern() = default;
    // A constructor (not an aggregate) so that the three-field form used everywhere stays valid.
    NamedPattern(std::string titleText, std::string captionText, Pattern accessPattern,
                 std::optional<Kernel> wholeKernel = std::nullopt)
        : title(std::move(titleText)), caption(std::move(captionText)),
          pattern(std::move(accessPattern)), kernel(std::move(wholeKernel)) {}

    std::string title;
    std::string caption;
    Pattern pattern;
    /// Set when the entry is a whole kernel (format version 2); `pattern` is then one of its
    /// accesses as the single-warp views show it.
    std::optional<Kernel> kernel;

    bool operator==(const NamedPattern&) const = default;
};

/// A measured value recorded with where it was measured, so a session opened without a GPU can
/// still show it (filled by the GPU layers; the core only stores it).
struct RecordedMeasurement {
    std::string gpu;
    std::string computeCapability; // "9.0"; may be empty
    std::string driver;
    std::string date; // ISO 8601
    std::map<std::string, double> metrics;
    /// Which device exactly ("GPU-4a5b…" as nvidia-smi prints it) and the probe's build; empty
    /// when unknown (sessions written before they were recorded).
    std::string gpuUuid;
    std::string probeVersion;

    bool operator==(const RecordedMeasurement&) const = default;
};

struct SessionEntry {
    NamedPattern pattern;
    std::vector<RecordedMeasurement> measurements;

    bool operator==(const SessionEntry&) const = default;
};

/// What the app saves: the patterns being explored and the view settings the core knows of.
struct Session {
    std::vector<SessionEntry> entries;
    int currentEntry = 0;
    std::string model = "modern"; // "modern" or "textbook"
    /// Free-form view settings of the app (strings only), kept as they are.
    std::map<std::string, std::string> viewSettings;
    /// Each probe experiment's results by its key ("transfers", "streams", "l2-persistence"):
    /// the probe's result object as it answered it (a JSON object), which the experiment's reader
    /// in core reads. Only its shape is checked here; keys of experiments this build does not
    /// know are kept as they are. Sessions written before this field held the results as JSON
    /// text in `viewSettings`, under the experiment's session key.
    std::map<std::string, nlohmann::json> experiments;
    /// The TMA tile load the tile view draws under the access (its box, element size, swizzle
    /// and shared-memory offset), when one is chosen. Any value the tile view can show is kept,
    /// including a load core's TMA layout refuses (the view says why).
    std::optional<TmaTileLoad> tmaLoad;

    bool operator==(const Session&) const = default;
};

// Single patterns, as JSON text. The JSON object for a pattern is also what `warpscope-cli
// predict` reads, so `patternFromJsonText` accepts both the file form (with "format") and the
// bare line form.
std::string patternToJsonText(const NamedPattern& pattern);
Result<NamedPattern> patternFromJsonText(std::string_view text);

/// One pattern object (file or bare form) from JSON already parsed, such as a preset's "pattern";
/// errors name their place below `where` (a JSON pointer).
Result<NamedPattern> patternFromJson(const nlohmann::json& object, const std::string& where = "");

std::string sessionToJsonText(const Session& session);
Result<Session> sessionFromJsonText(std::string_view text);

/// One slide of a lecture deck: a pattern (a built-in preset or written out) with the words and
/// the views to show for it.
struct DeckSlide {
    /// The built-in preset the slide shows; empty when the pattern is written in the deck.
    std::string presetId;
    /// The pattern shown: the preset's (titled and captioned as the preset) or the deck's own.
    NamedPattern pattern;
    /// The slide's heading and caption; the reader fills them from the pattern when absent.
    std::string title;
    std::string caption;
    /// Which views to show, in order: "warp", "bank", "block", "sweep", "metrics", "grid",
    /// "notes" (at least one).
    std::vector<std::string> views;
    /// A kernel preset ("kernel": id) the slide shows instead of a pattern preset: its first
    /// access in the single-warp views, its whole launch in the grid view. Empty for none.
    std::string kernelPresetId;
    /// The notes experiment ("notes": "table-4-11") the "notes" view charts; the app checks the
    /// id. Empty for none.
    std::string notesExperiment;

    bool operator==(const DeckSlide&) const = default;
};

/// A lecture deck (format "warpscope-deck"): an ordered list of slides, stepped through in
/// lecture mode and exported as one figure per slide. See docs/file-formats.md.
struct Deck {
    std::string title;
    std::vector<DeckSlide> slides;

    bool operator==(const Deck&) const = default;
};

/// The view names a deck slide may list, in their usual order.
const std::vector<std::string>& deckViewNames();

/// Writes slides from a preset as {"preset": id} with their title, caption and views, others with
/// the pattern written out.
std::string deckToJsonText(const Deck& deck);
/// Reads a deck; an unknown preset id, an unknown view or an empty slide list is an error that
/// names its place ("/slides/3/preset").
Result<Deck> deckFromJsonText(std::string_view text);

/// Read a whole regular file of at most maxFileBytes() (readRegularFile, file_open.h); anything
/// else (a FIFO, a device, a directory) is refused without blocking. The error names the path.
Result<std::string> readTextFile(const std::string& path);

} // namespace warpscope
