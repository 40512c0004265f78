// The conformance matrix: media a careful video engineer makes (generated
// here with the ffmpeg command) x every output container README names, each
// cell run through `liveconv run --mask identity` and checked with ffprobe
// and ffmpeg as FFmpeg's FATE checks its own: every frame there and
// decodable, at its input time within one tick of the output's time base and
// in order, the input's duration, the audio's samples (allowing the codec's
// priming), the colour tags, chapters and subtitles the container holds, and
// an identity PSNR of at least 40 dB on every frame. A cell a container
// cannot hold prints a visible SKIP line with its reason; one ctest test per
// input row.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "media/media_test_support.hpp"
#include "test_support.hpp"

namespace liveconv::media {
namespace {

namespace fs = std::filesystem;
using test_media::has;
using test_media::liveconv;
using test_media::Result;
using test_media::remuxRotated;
using test_media::shell;

// This suite's own folder among the media suites' (removed with theirs).
std::string workDir() {
  static const std::string dir = [] {
    const fs::path p = fs::path(test_media::tempDir()) / "conformance";
    fs::create_directories(p);
    return p.string();
  }();
  return dir;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && line.back() == ',') line.pop_back();
  return line;
}

// Everything the checks read of a file, from one ffprobe run that reads its
// packets and decodes its frames (`-of flat`: one key=value a line). One run
// a file rather than one a question: every ffprobe is a process that loads
// FFmpeg's libraries (about 0.1 s of CPU), and a row asked some thirty.
class Probe {
 public:
  explicit Probe(const std::string& path) {
    const std::string text =
        shell("ffprobe -v error -show_entries format=duration:stream=index,codec_type,codec_name,width,height,"
              "sample_aspect_ratio,color_range,color_space,sample_rate,time_base:stream_side_data=rotation:chapter=id:"
              "frame=stream_index,media_type,pts_time,nb_samples:packet=stream_index,codec_type,pts_time,duration_time,"
              "size -of flat " + path)
            .output;
    for (const std::string& line : lines(text)) {
      const auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string value = line.substr(eq + 1);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      std::vector<std::string> key;
      std::istringstream parts(line.substr(0, eq));
      for (std::string part; std::getline(parts, part, '.');) key.push_back(part);
      const auto number = [&](std::size_t k) { return k < key.size() ? std::atoi(key[k].c_str()) : 0; };
      if (key.size() == 2 && key[0] == "format") {
        format_[key[1]] = value;
      } else if (key.size() == 4 && key[0] == "streams") {
        streams_[number(2)][key[3]] = value;
      } else if (key.size() >= 4 && key[0] == "streams" && key.back() == "rotation") {  // ...side_data.M.rotation
        streams_[number(2)]["rotation"] = value;
      } else if (key.size() == 4 && key[0] == "chapters") {
        chapters_.insert(number(2));
      } else if (key.size() == 4 && key[0] == "packets_and_frames") {
        (key[1] == "frame" ? frames_ : packets_)[number(2)][key[3]] = value;
      }
    }
  }

  // A field of the first stream of `type` ("video", "audio", "subtitle"); "" without one.
  std::string stream(const std::string& type, const std::string& field) const {
    const Fields* s = first(type);
    if (!s) return "";
    const auto at = s->find(field);
    return at == s->end() ? "" : at->second;
  }
  // The codec of every stream of `type`, comma-separated.
  std::string codecs(const std::string& type) const {
    std::string names;
    for (const auto& [index, s] : streams_)
      if (get(s, "codec_type") == type) names += (names.empty() ? "" : ",") + get(s, "codec_name");
    return names;
  }
  double duration() const { return std::atof(get(format_, "duration").c_str()); }
  int chapters() const { return static_cast<int>(chapters_.size()); }
  // ffprobe's words for the video's display matrix ("rotation=-90"), or "" when it has none.
  std::string rotation() const {
    const std::string degrees = stream("video", "rotation");
    return degrees.empty() ? "" : "rotation=" + degrees;
  }
  // One tick of the video's time base, in seconds (-1: none).
  double videoTick() const {
    int num = 0, den = 0;
    return std::sscanf(stream("video", "time_base").c_str(), "%d/%d", &num, &den) == 2 && den > 0 ? double(num) / den
                                                                                                   : -1;
  }
  // The presentation times of the video's decoded frames.
  std::vector<double> frameTimes() const {
    std::vector<double> times;
    for (const auto& [n, f] : frames_) {
      const std::string t = get(f, "pts_time");
      if (isFirst(f, "video") && !t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-'))
        times.push_back(std::stod(t));
    }
    return times;
  }
  // The decoded samples of the first audio stream (0: none).
  long long audioSamples() const {
    long long total = 0;
    for (const auto& [n, f] : frames_)
      if (isFirst(f, "audio")) total += std::atoll(get(f, "nb_samples").c_str());
    return total;
  }
  int audioRate() const { return std::atoi(stream("audio", "sample_rate").c_str()); }
  // Each subtitle cue's start and duration in seconds (-1: the container keeps
  // none, as NUT); the empty samples MP4 fills the gaps between cues with are no cues.
  std::vector<std::pair<double, double>> cues() const {
    std::vector<std::pair<double, double>> out;
    for (const auto& [n, p] : packets_) {
      if (!isFirst(p, "subtitle") || std::atoi(get(p, "size").c_str()) <= 2) continue;
      const std::string duration = get(p, "duration_time");
      out.emplace_back(std::atof(get(p, "pts_time").c_str()), duration == "N/A" ? -1.0 : std::atof(duration.c_str()));
    }
    return out;
  }

 private:
  using Fields = std::map<std::string, std::string>;
  static std::string get(const Fields& f, const std::string& key) {
    const auto at = f.find(key);
    return at == f.end() ? "" : at->second;
  }
  const Fields* first(const std::string& type) const {
    for (const auto& [index, s] : streams_)
      if (get(s, "codec_type") == type) return &s;
    return nullptr;
  }
  // Whether a packet or frame belongs to the first stream of `type`.
  bool isFirst(const Fields& f, const std::string& type) const {
    const Fields* s = first(type);
    return s && get(f, "stream_index") == get(*s, "index");
  }

  Fields format_;
  std::map<int, Fields> streams_, frames_, packets_;
  std::set<int> chapters_;
};

// A file's frames as ffmpeg decodes them to RGBA (frame by frame, in order).
std::string rgbaFrames(const std::string& path, const std::string& rawArgs = "", const std::string& filter = "") {
  std::string bytes;
  const std::string vf = filter.empty() ? "" : " -vf " + filter;
  FILE* pipe = popen(("ffmpeg -v error " + rawArgs + " -i " + path + vf + " -fps_mode passthrough -f rawvideo -pix_fmt rgba -").c_str(), "r");
  if (!pipe) return bytes;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) bytes.append(buf, n);
  pclose(pipe);
  return bytes;
}

// The smallest per-frame PSNR (over R, G and B) of raw RGBA frames against
// `in` decoded to RGBA by ffmpeg with the matrix and range liveconv reads it
// with (`filter`), frame k against frame k; -1 if the frame counts differ.
// `rawArgs` gives the raw frames their geometry.
double minimumRgbPsnr(const std::string& out, const std::string& in, std::size_t frameBytes, const std::string& rawArgs,
                      const std::string& filter) {
  const std::string a = rgbaFrames(out, rawArgs), b = rgbaFrames(in, "", filter);
  if (a.size() != b.size() || a.empty() || a.size() % frameBytes) return -1;
  double lowest = 99;
  for (std::size_t f = 0; f < a.size(); f += frameBytes) {
    double squares = 0;
    for (std::size_t i = f; i < f + frameBytes; ++i) {
      if (i % 4 == 3) continue;  // alpha
      const double d = double(static_cast<unsigned char>(a[i])) - static_cast<unsigned char>(b[i]);
      squares += d * d;
    }
    const double mse = squares / (frameBytes / 4 * 3);
    lowest = std::min(lowest, mse == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / mse));
  }
  return lowest;
}

// An output file and the range its samples are read in (a player's reading:
// the file's tag, else limited).
struct Output {
  std::string path, range;
};

// The smallest per-frame PSNR (Y, Cb and Cr at full chroma resolution) of
// each of `outs` against `in`, frame k against frame k, as ffmpeg's psnr filter
// measures it; the input is read in its range (`range`: full or limited) and
// matrix, each output in its own range and converted to the input's where they
// differ. One ffmpeg for every output of a row (the input decoded once, split):
// a process a cell decoded the input six times over. -1 for an output with no
// frame compared.
std::vector<double> minimumYuvPsnrs(const std::vector<Output>& outs, const std::string& in, const std::string& range,
                                    const std::string& matrix) {
  std::vector<double> lowest(outs.size(), -1);
  if (outs.empty()) return lowest;
  // Both sides tagged alike (FFmpeg 7 converts an untagged side to a tagged one's matrix before comparing).
  const auto side = [&](const std::string& from) {
    const std::string space = matrix == "bt709" ? "bt709" : matrix == "bt2020" ? "bt2020nc" : "smpte170m";
    return "settb=1/25,setpts=N,setparams=range=" + from + ":colorspace=" + space + ",scale=in_range=" + from +
           ":out_range=" + range + ",format=yuv444p";
  };
  std::string inputs = " -i " + in, graph = "[0:v]" + side(range) + ",split=" + std::to_string(outs.size());
  for (std::size_t k = 0; k < outs.size(); ++k) graph += "[in" + std::to_string(k) + "]";
  std::string maps;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    const std::string n = std::to_string(k);
    inputs += " -i " + outs[k].path;
    graph += ";[" + std::to_string(k + 1) + ":v]" + side(outs[k].range) + "[out" + n + "];[out" + n + "][in" + n +
             "]psnr=stats_file=" + outs[k].path + ".psnr[cmp" + n + "]";
    maps += " -map '[cmp" + n + "]' -f null -";
  }
  shell("ffmpeg -v error" + inputs + " -lavfi '" + graph + "'" + maps);
  for (std::size_t k = 0; k < outs.size(); ++k) {
    std::ifstream s(outs[k].path + ".psnr");
    double low = 1e9;
    int frames = 0;
    for (std::string line; std::getline(s, line);) {
      const auto at = line.find("psnr_avg:");
      if (at == std::string::npos) continue;
      ++frames;
      const std::string v = line.substr(at + 9, line.find(' ', at) - at - 9);
      low = std::min(low, v == "inf" ? 99.0 : std::atof(v.c_str()));
    }
    if (frames) lowest[k] = low;
  }
  return lowest;
}

struct Input {
  Input(std::string n, std::string f, std::vector<std::string> m, std::string c = "", bool jumps = false,
        bool subs = false, bool chaps = false)
      : name(std::move(n)), file(std::move(f)), makers(std::move(m)), colour(std::move(c)), clockJumps(jumps),
        subtitles(subs), chapters(chaps) {}
  std::string name;
  std::string file;                 // the clip's name (its extension is its container)
  std::vector<std::string> makers;  // ffmpeg argument lists; several are joined by cat (a transport stream)
  std::string colour;               // the colour tags the output must carry ("" = not checked)
  bool clockJumps = false;          // timestamps jump back mid-file: the output goes on instead
  bool subtitles = false;
  bool chapters = false;
  int rotation = 0;  // a display matrix set on the clip (av_display_rotation_set's degrees)
};

void PrintTo(const Input& input, std::ostream* os) { *os << input.name; }

const std::string kPicture = "-f lavfi -i testsrc2=size=320x240:rate=25";
const std::string kTone = " -f lavfi -i sine=frequency=440:sample_rate=48000";

std::vector<Input> inputs() {
  std::vector<Input> in;
  in.push_back({"vfr_gaps_aac", "vfr_gaps_aac.mkv",
                {kPicture + kTone + " -t 2 -vf settb=1/1000,setpts='(N/25+gte(N\\,10)*0.413+gte(N\\,30)*1.2)/TB' "
                            "-fps_mode passthrough -enc_time_base 1:1000 -c:v libx264 -pix_fmt yuv420p -c:a aac"},
                "", false, false, false});
  const std::string hue = " -frames:v 25 -vf hue=s=0.6 -c:v libx264 ";
  in.push_back({"bt709_full", "bt709_full.mp4",
                {kPicture + hue + "-pix_fmt yuvj420p -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range pc"},
                "pc,bt709"});
  in.push_back({"bt709_limited", "bt709_limited.mp4",
                {kPicture + hue + "-pix_fmt yuv420p -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv"},
                "tv,bt709"});
  in.push_back({"bt601_full", "bt601_full.mp4", {kPicture + hue + "-pix_fmt yuvj420p -colorspace bt470bg -color_range pc"},
                "pc,bt470bg"});
  in.push_back({"bt601_limited", "bt601_limited.mp4",
                {kPicture + hue + "-pix_fmt yuv420p -colorspace smpte170m -color_range tv"}, "tv,smpte170m"});
  // Anamorphic too: NTSC's 10:11 pixels.
  in.push_back({"untagged_sd", "untagged_sd.mp4",
                {kPicture + " -frames:v 25 -vf hue=s=0.6,setsar=10/11 -c:v libx264 -pix_fmt yuv420p"}, "tv,smpte170m"});
  in.push_back({"untagged_hd", "untagged_hd.mp4",
                {"-f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 8 -vf hue=s=0.6 -c:v libx264 -pix_fmt yuv420p"},
                "tv,bt709"});
  in.push_back({"10bit", "10bit.mkv", {kPicture + " -frames:v 25 -pix_fmt yuv420p10le -c:v ffv1"}});
  // More than 8 bits run at 16 through the engine (run --depth auto): 4:2:2 and
  // 4:4:4 at 10 and 12 bits, HEVC Main10 with HDR10's tags, as a phone records.
  // The colours toned down as for the lossy rows above: at full saturation
  // an RGB round trip and lossy 4:4:4 coding stay under the 40 dB floor
  // (37.9 dB, ffmpeg's own through rgba64 alike).
  in.push_back({"10bit_422", "10bit_422.mkv", {kPicture + " -frames:v 25 -pix_fmt yuv422p10le -c:v ffv1"}});
  in.push_back(
      {"12bit_444", "12bit_444.mkv", {kPicture + " -frames:v 25 -vf hue=s=0.6 -pix_fmt yuv444p12le -c:v ffv1"}});
  in.push_back({"hevc_main10",
                "hevc_main10.mp4",
                {kPicture + kTone +
                 " -t 1 -vf hue=s=0.6,scale=out_color_matrix=bt2020:out_range=tv,setparams=color_primaries=bt2020:"
                 "color_trc=smpte2084:colorspace=bt2020nc -c:v libx265 -preset ultrafast "
                 "-x265-params log-level=error -pix_fmt yuv420p10le -colorspace bt2020nc -color_primaries "
                 "bt2020 -color_trc smpte2084 -c:a aac"},
                "tv,bt2020nc"});
  in.push_back({"clock_jump_resize", "clock_jump_resize.ts",
                {kPicture + ":duration=2" + kTone + ":duration=2 -c:v mpeg2video -c:a aac",
                 "-f lavfi -i testsrc2=size=240x180:rate=25:duration=2" + kTone + ":duration=2 -c:v mpeg2video -c:a aac"},
                "", true});
  in.push_back({"opus", "opus.mkv", {kPicture + kTone + " -t 1 -c:v libx264 -pix_fmt yuv420p -c:a libopus"}});
  in.push_back({"pcm", "pcm.mov", {kPicture + kTone + " -t 1 -c:v libx264 -pix_fmt yuv420p -c:a pcm_s16le"}});
  // MPEG-2 at a high quality: at FFmpeg's default 200 kbit/s its colours fall
  // outside RGB's range, and no round trip through RGBA (ffmpeg's own gets
  // 38.5 dB) brings them back.
  in.push_back({"ac3", "ac3.ts", {kPicture + kTone + " -t 1 -c:v mpeg2video -q:v 2 -c:a ac3"}});
  in.push_back({"subrip_chapters", "subrip_chapters.mkv",
                {kPicture + " -i SUBS.srt -i CHAPTERS.txt -map 0:v -map 1:s -map_chapters 2 -frames:v 50 -c:v ffv1 -c:s srt"},
                "", false, true, true});
  in.push_back({"ass", "ass.mkv", {kPicture + " -i SUBS.srt -map 0:v -map 1:s -frames:v 50 -c:v ffv1 -c:s ass"},
                "", false, true});
  in.push_back({"mov_text", "mov_text.mp4",
                {kPicture + " -i SUBS.srt -map 0:v -map 1:s -frames:v 50 -c:v libx264 -pix_fmt yuv420p -c:s mov_text"},
                "", false, true});
  for (const int degrees : {90, 180, 270}) {  // a phone's clip, stored on its side
    in.push_back({"rotation_" + std::to_string(degrees), "rotation_" + std::to_string(degrees) + ".mp4",
                  {kPicture + " -frames:v 25 -c:v libx264 -pix_fmt yuv420p"}});
    in.back().rotation = degrees;
  }
  in.push_back({"size_1x1", "size_1x1.mkv", {"-f lavfi -i testsrc2=size=16x16:rate=25 -vf scale=1:1 -frames:v 5 -c:v ffv1"}});
  in.push_back({"size_8191x2", "size_8191x2.mkv",
                {"-f lavfi -i testsrc2=size=8192x16:rate=25 -vf scale=8191:2 -frames:v 5 -pix_fmt yuv444p -c:v ffv1"}});
  return in;
}

// Makes the row's clip (and its subtitles and chapters); empty if ffmpeg cannot.
std::string make(const Input& input) {
  const std::string dir = workDir() + "/";
  std::ofstream(dir + "SUBS.srt") << "1\n00:00:00,200 --> 00:00:00,900\nfirst line\n\n"
                                  << "2\n00:00:01,000 --> 00:00:01,800\nsecond line\n";
  std::ofstream(dir + "CHAPTERS.txt") << ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=one\n"
                                      << "[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=2000\ntitle=two\n";
  std::vector<std::string> parts;
  for (std::size_t k = 0; k < input.makers.size(); ++k) {
    std::string args = input.makers[k];
    for (const char* name : {"SUBS.srt", "CHAPTERS.txt"})
      if (const auto at = args.find(name); at != std::string::npos) args.replace(at, std::strlen(name), dir + name);
    const std::string part = dir + (input.makers.size() > 1 ? std::to_string(k) + "_" : "") + input.file;
    if (shell("ffmpeg -hide_banner -loglevel error -y " + args + " " + part).exitCode != 0) return "";
    parts.push_back(part);
  }
  if (input.rotation) {
    const std::string rotated = dir + "rotated_" + input.file;
    if (parts.size() != 1 || !remuxRotated(parts.front(), rotated, input.rotation)) return "";
    return rotated;
  }
  if (parts.size() == 1) return parts.front();
  std::string cat = "cat";
  for (const std::string& p : parts) cat += " " + p;
  return shell(cat + " > " + dir + input.file).exitCode == 0 ? dir + input.file : "";
}

struct Container {
  std::string extension;
  bool raw = false;
};
const Container kContainers[] = {{"mkv"}, {"mp4"}, {"mov"}, {"nut"}, {"avi"}, {"webm"}, {"rgba", true}};

class Conformance : public ::testing::TestWithParam<Input> {};

constexpr double kFrame = 0.04;  // every row is 25 frames a second

// The sample aspect ratio; square where the clip says none.
std::string aspectOf(const Probe& file) {
  const std::string sar = file.stream("video", "sample_aspect_ratio");
  return sar.empty() || sar == "N/A" || sar == "0:1" ? std::string("1:1") : sar;
}

// What the input is, read once: its size as stored and as shown, the rules
// liveconv reads its colours by, its sound, orientation and length.
struct InputFacts {
  InputFacts(const Input& row, const std::string& in)
      : probe(in),
        times(probe.frameTimes()),
        width(std::atoi(probe.stream("video", "width").c_str())),
        height(std::atoi(probe.stream("video", "height").c_str())),
        range(probe.stream("video", "color_range") == "pc" ? "full" : "limited"),
        // Its tag, else BT.709 for HD and BT.601 for SD, as players do.
        matrix(has(row.colour, "bt709")    ? "bt709"
               : has(row.colour, "bt2020") ? "bt2020"
                                           : "bt601"),
        samples(probe.audioSamples()),
        rate(samples > 0 ? probe.audioRate() : 0),
        aspect(aspectOf(probe)),
        rotation(probe.rotation()),
        onItsSide(row.rotation % 180 != 0),  // a player shows it with the sides swapped
        shownWidth(onItsSide ? height : width),
        shownHeight(onItsSide ? width : height),
        duration(row.clockJumps ? kFrame * times.size() : probe.duration()) {}
  const Probe probe;
  const std::vector<double> times;
  const int width, height;
  const std::string range, matrix;
  const long long samples;
  const int rate;
  const std::string aspect, rotation;
  const bool onItsSide;
  const int shownWidth, shownHeight;
  const double duration;
};

// One cell of the matrix: the row's input through `liveconv run` into one
// container, each promise checked in turn, what it kept said in one line.
class Cell {
 public:
  Cell(const Input& row, const InputFacts& in, const Container& c, const std::string& input)
      : row_(row),
        in_(in),
        c_(c),
        input_(input),
        name_(row.name + " x " + c.extension),
        out_(workDir() + "/out_" + row.name + "." + c.extension),
        r_(liveconv("run -i " + input + " -o " + out_ + " --mask identity --variant naive -y")) {
    said_ << "[   CELL   ] " << name_ << ":";
  }
  const std::string& name() const { return name_; }
  const std::string& out() const { return out_; }
  std::string said() const { return said_.str(); }
  bool ran() const { return r_.exitCode == 0; }

  // The one cell liveconv refuses: H.264 (MP4/MOV) takes no odd sizes in 4:2:0, and says so.
  void checkRefusal() {
    const bool oddIntoH264 = (in_.width % 2 || in_.height % 2) && (c_.extension == "mp4" || c_.extension == "mov");
    EXPECT_TRUE(oddIntoH264) << name_ << ": exit " << r_.exitCode << "\n" << r_.output;
    EXPECT_EQ(r_.exitCode, 8) << name_;
    EXPECT_TRUE(has(r_.output, "needs a width divisible by 2")) << name_ << ": " << r_.output;
    EXPECT_FALSE(fs::exists(out_)) << name_ << ": a refused run leaves no file";
    const auto sentence = r_.output.find("liveconv: ");
    std::cout << said() << " SKIP (refused with one sentence: "
              << firstLine(sentence == std::string::npos ? r_.output : r_.output.substr(sentence)) << ")\n";
  }

  // Orientation: the display matrix where the container keeps one, else the
  // pixels turned as a player shows them. What was done, for the line.
  std::string checkOrientation(const std::optional<Probe>& probed) const {
    if (!row_.rotation) return "";
    const std::string size = probed ? probed->stream("video", "width") + "," + probed->stream("video", "height") : "";
    const std::string stored = std::to_string(in_.width) + "," + std::to_string(in_.height);
    const std::string shown = std::to_string(in_.shownWidth) + "," + std::to_string(in_.shownHeight);
    if (probed && !probed->rotation().empty()) {
      EXPECT_EQ(probed->rotation(), in_.rotation) << name_;
      EXPECT_EQ(size, stored) << name_ << ": the matrix is kept, the pixels too";
      return ", " + in_.rotation + " kept";
    }
    EXPECT_TRUE(has(r_.output, "keeps no display rotation, so the frames of") ||
                has(r_.output, "keep no display rotation, so the frames of"))
        << name_ << ": the rotation is neither kept nor turned, or not said:\n"
        << r_.output;
    if (!c_.raw) {
      EXPECT_EQ(size, shown) << name_ << ": the pixels are not turned";
    }
    return ", pixels turned (" + c_.extension + " keeps no rotation)";
  }

  // Raw frames: every frame's RGBA pixels, against swscale's exact conversion
  // by the same rules (chroma from its sample).
  void checkRawFrames(const std::string& turned) {
    const std::size_t frameBytes = std::size_t(in_.width) * in_.height * 4;
    const auto bytes = fs::file_size(out_);
    EXPECT_EQ(bytes, in_.times.size() * frameBytes) << name_ << ": every frame's RGBA pixels";
    said_ << " frames " << bytes / frameBytes << "/" << in_.times.size();
    if (!row_.clockJumps && in_.width >= 16 && in_.height >= 16) {
      const std::string picture = std::to_string(in_.shownWidth) + "x" + std::to_string(in_.shownHeight);
      const double psnr = minimumRgbPsnr(out_, input_, frameBytes, "-f rawvideo -pix_fmt rgba -s " + picture,
                                         "scale=in_color_matrix=" + in_.matrix + ":in_range=" + in_.range +
                                             ":flags=neighbor+accurate_rnd+full_chroma_int");
      EXPECT_GE(psnr, 40.0) << name_;
      said_ << ", PSNR min " << psnr << " dB";
    }
    std::cout << said() << turned << "; SKIP timestamps, duration, sound, tags (raw frames hold none)\n";
  }

  // Every frame, decodable, in order, at its time; the duration.
  void checkTimes(const Probe& out, const std::string& turned) {
    const std::vector<double> t = out.frameTimes();
    ASSERT_EQ(t.size(), in_.times.size()) << name_ << ": frames decodable != frames in";
    said_ << " frames " << t.size() << "/" << in_.times.size() << turned;
    const double step = std::max(out.videoTick(), 0.0015);
    for (std::size_t k = 1; k < t.size(); ++k) {
      EXPECT_GT(t[k], t[k - 1]) << name_ << ", frame " << k << ": out of order";
      if (row_.clockJumps)
        EXPECT_LT(t[k] - t[k - 1], 0.1) << name_ << ", frame " << k << ": a gap the input does not have";
      else
        EXPECT_NEAR(t[k] - t[0], in_.times[k] - in_.times[0], step + 1e-6) << name_ << ", frame " << k;
    }
    said_ << ", times within " << step << " s";
    const double outDuration = out.duration();
    // Where the clock jumped: the output's own span (it goes on a frame after
    // the jump, as ffmpeg's does), up to its sound's length where that is longer.
    const double tolerance = std::max(kFrame + 0.001, step + 0.005);
    const double wanted = row_.clockJumps ? t.back() - t.front() + kFrame : in_.duration;
    const double soundLonger =
        row_.clockJumps && in_.rate > 0 ? std::max(0.0, double(in_.samples) / in_.rate - wanted) : 0.0;
    EXPECT_GE(outDuration, wanted - tolerance) << name_ << ": duration";
    EXPECT_LE(outDuration, wanted + soundLonger + tolerance) << name_ << ": duration";
    said_ << ", duration " << outDuration << "/" << wanted << " s";
  }

  // The sound: every sample (copied packets are the input's; an encoder adds
  // its priming and pads its last frame, up to 0.05 s), or left out with a line.
  void checkSound(const Probe& out) {
    if (in_.samples <= 0) return;
    const long long outSamples = out.audioSamples();
    if (outSamples == 0) {
      EXPECT_TRUE(has(r_.output, "cannot be copied into")) << name_ << ": the sound left out without a word";
      said_ << "; SKIP sound (" << in_.probe.codecs("audio") << " cannot go into " << c_.extension
            << ", and the run said so)";
      return;
    }
    const int rate = out.audioRate();
    const double outSeconds = double(outSamples) / rate, inSeconds = double(in_.samples) / in_.rate;
    const std::string counts = std::to_string(outSamples) + " samples at " + std::to_string(rate) + " Hz against " +
                               std::to_string(in_.samples) + " at " + std::to_string(in_.rate);
    EXPECT_GE(outSeconds, inSeconds) << name_ << ": " << counts;
    EXPECT_LE(outSeconds, inSeconds + 0.05) << name_ << ": " << counts;
    said_ << ", sound " << outSamples << "/" << in_.samples << " samples (" << out.codecs("audio") << ")";
  }

  // The sample aspect ratio (a clip with square pixels only says that nothing
  // changed it); WebM holds it as a display width in whole pixels (10:11 of
  // 320 reads 291:320), so within one pixel of the shown width.
  void checkAspect(const Probe& out) {
    const std::string outAspect = aspectOf(out);
    const auto ratio = [](const std::string& sar) {
      int num = 1, den = 1;
      return std::sscanf(sar.c_str(), "%d:%d", &num, &den) == 2 && den > 0 ? double(num) / den : 1.0;
    };
    EXPECT_NEAR(ratio(outAspect) * in_.width, ratio(in_.aspect) * in_.width, 1.0)
        << name_ << ": sample aspect ratio " << outAspect << ", the input's " << in_.aspect;
    if (in_.aspect != "1:1") said_ << ", SAR " << outAspect;
  }

  // NUT and AVI hold no colour tags: a full-range input is written there in
  // limited range (what a player reads of an untagged file), as ffmpeg writes it.
  bool untagged() const { return c_.extension == "nut" || c_.extension == "avi"; }
  bool toLimited() const { return untagged() && in_.range == "full"; }

  // Colour tags, and the range conversion said where the container holds none.
  void checkColour(const Probe& out) {
    if (toLimited()) {
      EXPECT_TRUE(
          has(r_.output, "keeps no colour range, so the full-range frames of the input are written in limited range"))
          << name_ << ": the range conversion not said:\n"
          << r_.output;
    }
    if (!row_.colour.empty() && untagged()) {
      said_ << "; SKIP colour tags (" << c_.extension << " holds none)";
    } else if (!row_.colour.empty()) {
      const std::string tags = out.stream("video", "color_range") + "," + out.stream("video", "color_space");
      EXPECT_EQ(tags, row_.colour) << name_ << ": colour tags";
      said_ << ", tags " << tags;
    }
  }

  // Subtitles and chapters where the container holds them: every cue at its
  // time, for its time (copied, or converted to the container's own codec).
  void checkSubtitlesAndChapters(const Probe& out) {
    if (row_.subtitles && out.codecs("subtitle").empty()) {
      EXPECT_TRUE(has(r_.output, "cannot be copied into")) << name_ << ": the subtitles left out without a word";
      said_ << "; SKIP subtitles (" << in_.probe.codecs("subtitle") << " cannot go into " << c_.extension
            << ", and the run said so)";
    } else if (row_.subtitles) {
      const auto want = in_.probe.cues(), got = out.cues();
      EXPECT_EQ(got.size(), want.size()) << name_ << ": subtitle cues";
      for (std::size_t k = 0; k < std::min(got.size(), want.size()); ++k) {
        EXPECT_NEAR(got[k].first, want[k].first, 0.002) << name_ << ", cue " << k << ": start";
        if (got[k].second >= 0) {
          EXPECT_NEAR(got[k].second, want[k].second, 0.002) << name_ << ", cue " << k << ": duration";
        }
      }
      said_ << ", subtitles " << out.codecs("subtitle") << " (" << got.size() << "/" << want.size() << " cues)";
    }
    if (!row_.chapters) return;
    if (c_.extension == "avi") {
      said_ << "; SKIP chapters (AVI holds none)";
      return;
    }
    EXPECT_EQ(out.chapters(), 2) << name_ << ": chapters";
    said_ << ", chapters " << out.chapters();
  }

  // Against ffmpeg's own, read as a player reads the file: the same lossless
  // codec and the same way through RGBA that every liveconv frame takes
  // (ffmpeg's direct full-to-limited scaling, which does not go through RGB,
  // comes about 4 dB closer than either).
  Output ffmpegsOwnInLimitedRange() const {
    const std::string theirs = workDir() + "/ffmpeg_" + row_.name + "." + c_.extension;
    const std::string through = "scale=in_color_matrix=" + in_.matrix +
                                ":in_range=full,format=rgba,scale=out_color_matrix=" + in_.matrix +
                                ":out_range=limited,format=yuv420p";
    const Result f = shell("ffmpeg -v error -y -i " + input_ + " -map 0:v -vf " + through + " -c:v ffv1 " + theirs);
    EXPECT_EQ(f.exitCode, 0) << name_ << ": ffmpeg's own: " << f.output;
    return Output{theirs, "limited"};
  }

  void skipPicture() {
    said_ << "; SKIP PSNR (" << (row_.clockJumps ? "the picture size changes mid-file" : "too small to measure") << ")";
    std::cout << said() << "\n";
  }

 private:
  const Input& row_;
  const InputFacts& in_;
  const Container& c_;
  const std::string input_, name_, out_;
  const Result r_;
  std::ostringstream said_;
};

// The cells whose picture is compared, with what each says so far: measured
// together after the last (one ffmpeg decodes the input once for all).
struct Compared {
  std::string cell, said;
  Output out;
  std::optional<Output> ffmpegs;  // ffmpeg's own FFV1 of the input into the same container, where it matters
};

// The picture: identity, every frame at 40 dB or better (and no worse than
// ffmpeg's own where the range was converted).
void checkPictures(const std::vector<Compared>& compared, const std::string& in, const InputFacts& facts) {
  constexpr double kFloor = 40;  // an identity run, every frame
  std::vector<Output> outs;
  for (const Compared& c : compared) outs.push_back(c.out);
  for (const Compared& c : compared)
    if (c.ffmpegs) outs.push_back(*c.ffmpegs);
  const std::vector<double> psnrs = minimumYuvPsnrs(outs, in, facts.range, facts.matrix);
  for (std::size_t k = 0, theirs = compared.size(); k < compared.size(); ++k) {
    EXPECT_GE(psnrs[k], kFloor) << compared[k].cell << ": the worst frame";
    std::cout << compared[k].said << ", PSNR min " << psnrs[k] << " dB";
    if (compared[k].ffmpegs) {
      EXPECT_GE(psnrs[k], psnrs[theirs] - 1.0) << compared[k].cell << ": against ffmpeg's own, read as a player reads it";
      std::cout << " (written in limited range; ffmpeg's own through RGBA " << psnrs[theirs] << " dB)";
      ++theirs;
    }
    std::cout << "\n";
  }
}

TEST_P(Conformance, EveryContainer) {
  LIVECONV_REQUIRE_DEVICE(ctx);
  const Input& row = GetParam();
  const std::string in = make(row);
  if (in.empty()) GTEST_SKIP() << "SKIP: the ffmpeg command could not make " << row.file;
  const InputFacts facts(row, in);
  ASSERT_FALSE(facts.times.empty()) << row.name;
  ASSERT_GT(facts.width * facts.height, 0) << row.name;
  // A row made with a tone has sound to follow (a probe that read none would skip every sound check).
  ASSERT_EQ(facts.samples > 0, has(row.makers.front(), "sine="))
      << row.name << ": " << facts.samples << " samples read";
  if (row.rotation) {
    ASSERT_FALSE(facts.rotation.empty()) << row.name << ": the clip has no display matrix";
  }
  std::vector<Compared> compared;
  for (const Container& c : kContainers) {
    Cell cell(row, facts, c, in);
    if (!cell.ran()) {
      cell.checkRefusal();
      continue;
    }
    // What ffprobe reads of the output (raw frames: nothing it can read).
    const std::optional<Probe> probed = c.raw ? std::nullopt : std::optional<Probe>(std::in_place, cell.out());
    const std::string turned = cell.checkOrientation(probed);
    if (c.raw) {
      cell.checkRawFrames(turned);
      continue;
    }
    ASSERT_NO_FATAL_FAILURE(cell.checkTimes(*probed, turned));
    cell.checkSound(*probed);
    cell.checkAspect(*probed);
    cell.checkColour(*probed);
    cell.checkSubtitlesAndChapters(*probed);
    if (row.clockJumps || facts.width < 16 || facts.height < 16) {
      cell.skipPicture();
      continue;
    }
    compared.push_back(
        {cell.name(), cell.said(), {cell.out(), cell.untagged() ? "limited" : facts.range}, std::nullopt});
    if (cell.toLimited()) compared.back().ffmpegs = cell.ffmpegsOwnInLimitedRange();
  }
  checkPictures(compared, in, facts);
}

INSTANTIATE_TEST_SUITE_P(Inputs, Conformance, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<Input>& info) { return info.param.name; });

}  // namespace
}  // namespace liveconv::media
